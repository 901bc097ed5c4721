// The bench signature: this build's search visits as many nodes as the optimised binary's.
// Run by the debug+ASan/UBSan test binary, it is the check that undefined behaviour or an
// uninitialised value does not change the search between builds (the sanitizer build makes
// no `sashite` binary of its own: the test binary searches in process).
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdint>
#include <exception>
#include <sstream>
#include <string>

#include "engine/search_bench.h"
#include "run_command.h"

namespace bench_signature_test {

namespace {

const std::string kOptimisedBinary = SASHITE_TEST_DATA_DIR "/../../build/sashite";

// The N of the first "Nodes searched: N" line in `text`, or -1.
int64_t nodes_searched(const std::string& text) {
  const std::string key = "Nodes searched: ";
  const size_t at = text.find(key);
  if (at == std::string::npos) return -1;
  try {
    return std::stoll(text.substr(at + key.size()));
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace

TEST_CASE("bench signature: the search at depth 6 visits as many nodes as build/sashite's") {
  REQUIRE_MESSAGE(access(kOptimisedBinary.c_str(), X_OK) == 0,
                  "no executable at " << kOptimisedBinary);
  int status = -1;
  const std::string optimised_output =
      test_commands::run_command(kOptimisedBinary + " bench --depth 6", status);
  REQUIRE(status == 0);
  const int64_t optimised = nodes_searched(optimised_output);
  REQUIRE_MESSAGE(optimised > 0, "no node count in: " << optimised_output);

  std::ostringstream this_output;
  const engine::SearchBenchResult here = engine::run_search_bench(this_output, 6);
  CHECK(nodes_searched(this_output.str()) == int64_t(here.nodes));
  MESSAGE("bench signature (depth 6): optimised " << optimised << ", this build " << here.nodes);
  CHECK(int64_t(here.nodes) == optimised);
}

TEST_CASE("bench: an option that cannot be set fails the bench instead of measuring defaults") {
  std::ostringstream out;
  const engine::SearchBenchResult r = engine::run_search_bench(out, 1, {"NoSuchOption=3"});
  CHECK(r.error.find("NoSuchOption") != std::string::npos);
  CHECK(r.nodes == 0);
  CHECK(out.str().find("Nodes searched") == std::string::npos);
  std::ostringstream fine;
  CHECK(engine::run_search_bench(fine, 1, {"FutilityMode=off"}).error.empty());
}

}  // namespace bench_signature_test
