// The names of the rules (shogi/) and of the base (base/) that the engine uses unqualified.
#pragma once

#include "base/status.h"
#include "shogi/types.h"

namespace engine {

using namespace base;
using namespace shogi;

}  // namespace engine
