// RecordWriter: jobs run in order on their own thread, a waiting record gives way to a newer
// one, and a blocked write does not block the poster.
#include "client/record_writer.h"

#include <doctest/doctest.h>

#include <future>
#include <string>
#include <vector>

namespace record_writer_test {

using client::RecordWriter;

TEST_CASE("record writer: jobs run in order; flush waits for them") {
  RecordWriter writer;
  std::vector<int> done;  // written by the writer's thread only, read after flush()
  for (int i = 0; i < 100; ++i) writer.post([&done, i] { done.push_back(i); });
  writer.flush();
  REQUIRE(done.size() == 100);
  for (int i = 0; i < 100; ++i) CHECK(done[i] == i);
  CHECK(writer.replaced() == 0);
}

TEST_CASE("record writer: while a write blocks, posting returns and only the newest record waits") {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> started;
  std::vector<std::string> written;
  {
    RecordWriter writer;
    writer.post(
        [&, released] {
          started.set_value();
          released.wait();  // a disk that hangs
          written.push_back("record 1");
        },
        true);
    started.get_future().wait();
    // The first job runs and blocks: these are queued, and the poster goes on.
    writer.post([&] { written.push_back("record 2"); }, true);
    writer.post([&] { written.push_back("record 3"); }, true);
    writer.post([&] { written.push_back("result"); });
    writer.post([&] { written.push_back("record 4"); }, true);
    CHECK(writer.replaced() == 1);
    release.set_value();
  }  // the destructor runs what is queued, then joins
  CHECK(written == std::vector<std::string>{"record 1", "record 3", "result", "record 4"});
}

}  // namespace record_writer_test
