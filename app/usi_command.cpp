// sashite usi: the engine speaking USI on standard input and output, for shogi GUIs.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/commands.h"
#include "book/engine_book.h"
#include "engine/engine.h"
#include "engine/usi.h"

CommandRun add_usi_options(CLI::App& sub) {
  auto list_options = std::make_shared<bool>(false);
  sub.add_flag(
      "--list-options", *list_options,
      "print the options as a Markdown table (name, type, default, range, meaning) and exit");
  return [list_options] {
    engine::Engine engine;
    if (*list_options) {
      std::cout << engine.options().markdown_table();
      return 0;
    }
    book::install_book_loader(engine);
    return engine::run_usi(engine, std::cin, std::cout);
  };
}
