// The build's version: SASHITE_VERSION comes from the version.h that the Makefile generates.
#include "engine/version.h"

#include "sashite_version.h"

namespace engine {

const char* build_version() { return SASHITE_VERSION; }

}  // namespace engine
