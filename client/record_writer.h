// RecordWriter: the client's file writes (records, results lines) on a thread of their own, so
// that a slow disk never delays reading the server's lines or starting a search.
#pragma once

// Jobs run one at a time in the order they were posted. A job posted as replaceable (a whole
// record, rewritten after every move) takes the place of a replaceable job still waiting at the
// end of the queue: when the disk falls behind, only the newest record is written. The
// destructor runs every job still queued, then joins the thread.
//   RecordWriter writer;
//   writer.post([=] { write(record); }, /*replaceable=*/true);
//   writer.flush();  // every job posted so far has run

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace client {

class RecordWriter {
 public:
  RecordWriter();
  ~RecordWriter();
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;

  // Queues `job`; returns at once. Thread-safe.
  void post(std::function<void()> job, bool replaceable = false);
  // Waits until every job posted before the call has run.
  void flush();
  // Jobs skipped because a newer replaceable one took their place (for tests and the log).
  long replaced() const;

 private:
  struct Job {
    std::function<void()> run;
    bool replaceable = false;
  };
  void loop();

  mutable std::mutex mutex_;
  std::condition_variable wake_;  // a job was posted, or stopping
  std::condition_variable idle_;  // the queue is empty and no job runs
  std::deque<Job> queue_;
  bool running_job_ = false;
  bool stopping_ = false;
  long replaced_ = 0;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace client
