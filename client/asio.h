// The one place that includes Boost.Asio. Boost 1.74's asio/awaitable.hpp uses std::exchange
// without including <utility>, which g++ 12 in C++20 mode refuses: include it first.
#pragma once

// clang-format off
#include <utility>  // before Boost.Asio (above); clang-format would sort it after
#include <boost/asio.hpp>
// clang-format on
