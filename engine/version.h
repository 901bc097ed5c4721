// The version of this build, for `id name` and `sashite --version`.
#pragma once

namespace engine {

// `git describe --always --dirty` of the tree the binary was built from ("v1.2-3-gabcdef",
// "-dirty" with uncommitted changes), or "unknown" when it was not built from a git checkout.
const char* build_version();

}  // namespace engine
