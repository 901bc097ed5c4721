// The build's version and install directory: the Makefile generates sashite_version.h.
#include "base/version.h"

#include "sashite_version.h"

namespace base {

const char* build_version() { return SASHITE_VERSION; }

const char* install_share_directory() { return SASHITE_SHARE_DIR; }

}  // namespace base
