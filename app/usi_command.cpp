// sashite usi: the engine speaking USI on standard input and output, for shogi GUIs.
#include <iostream>

#include "app/commands.h"
#include "book/engine_book.h"
#include "engine/engine.h"
#include "engine/usi.h"

int run_usi_command(bool list_options) {
  engine::Engine engine;
  if (list_options) {
    std::cout << engine.options().markdown_table();
    return 0;
  }
  book::install_book_loader(engine);
  return engine::run_usi(engine, std::cin, std::cout);
}
