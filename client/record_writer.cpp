// RecordWriter: an ordered job queue on one thread (see record_writer.h).
#include "client/record_writer.h"

#include <utility>

namespace client {

RecordWriter::RecordWriter() : thread_([this] { loop(); }) {}

RecordWriter::~RecordWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void RecordWriter::post(std::function<void()> job, bool replaceable) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (replaceable && !queue_.empty() && queue_.back().replaceable) {
      queue_.back().run = std::move(job);
      ++replaced_;
      return;
    }
    queue_.push_back({std::move(job), replaceable});
  }
  wake_.notify_one();
}

void RecordWriter::flush() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return queue_.empty() && !running_job_; });
}

long RecordWriter::replaced() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return replaced_;
}

void RecordWriter::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and everything queued has run
    Job job = std::move(queue_.front());
    queue_.pop_front();
    running_job_ = true;
    lock.unlock();
    job.run();
    lock.lock();
    running_job_ = false;
    if (queue_.empty()) idle_.notify_all();
  }
}

}  // namespace client
