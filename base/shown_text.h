// shown_text: input quoted back in a message, safe to print and of bounded length.
#pragma once

#include <string>
#include <string_view>

namespace base {

// `text` as a message may show it: control bytes (below 0x20, and 0x7f) and bytes that are
// not part of a UTF-8 sequence written as \xNN (Japanese names in UTF-8 stay as they are),
// and a text longer than max_bytes cut to its beginning and end around
// " ...(N bytes)... ". A GUI or a log gets one printable line whatever was read.
std::string shown_text(std::string_view text, size_t max_bytes = 160);

}  // namespace base
