// The one place that includes Boost.Asio. Boost 1.74's asio/awaitable.hpp uses std::exchange
// without including <utility>, which g++ 12 in C++20 mode refuses: include it first.
#pragma once

#include <boost/asio.hpp>
#include <utility>
