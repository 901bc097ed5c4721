// What a build knows of itself: its version, and where `make install` puts its shared files.
#pragma once

namespace base {

// `git describe --always --dirty` of the tree the binary was built from ("v1.2-3-gabcdef",
// "-dirty" with uncommitted changes), or "unknown" when it was not built from a git checkout.
const char* build_version();

// Where `make install PREFIX=...` puts the weights, the book and the configs:
// PREFIX/share/sashite (/usr/local/share/sashite by default). A binary copied anywhere
// finds them there.
const char* install_share_directory();

}  // namespace base
