// BookPlies: how many plies from the start position each book position is, through book moves.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "book/book_entry.h"

namespace book {

// Breadth-first search from the start position along book moves: the fewest plies to reach
// each entry (0 for the start position). Entries not reachable so are absent.
std::unordered_map<uint64_t, int> book_plies(const std::vector<BookEntry>& entries);

}  // namespace book
