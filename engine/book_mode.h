// BookMode: how an opening book is consulted. Part of the interface the engine defines for
// books (book_advisor.h); book/ implements that interface and uses this one declaration too.
#pragma once

#include <string_view>

namespace engine {

// kExact: the position itself must be in the book; kSimple and kRelation: similar positions
// (docs/techniques.md §3) lend their moves; kOff: the book is not consulted.
enum class BookMode { kOff, kExact, kSimple, kRelation };

// "off", "exact", "simple", "relation" (the BookMode option's values).
inline const char* book_mode_name(BookMode mode) {
  switch (mode) {
    case BookMode::kOff:
      return "off";
    case BookMode::kExact:
      return "exact";
    case BookMode::kSimple:
      return "simple";
    case BookMode::kRelation:
      return "relation";
  }
  return "off";
}

// The mode book_mode_name gives `text`; false (out unchanged) for other text.
inline bool parse_book_mode(std::string_view text, BookMode& out) {
  for (BookMode m : {BookMode::kOff, BookMode::kExact, BookMode::kSimple, BookMode::kRelation})
    if (text == book_mode_name(m)) {
      out = m;
      return true;
    }
  return false;
}

}  // namespace engine
