// StatusBoard: the status page's model, shared by the loop that plays and the status server.
#pragma once

// The playing loop changes the model with update() (a short critical section: copies of a
// few values, never a search or a file); the status server's thread takes a copy with
// snapshot() and renders it outside the lock. After each update the listener is told (the
// status server's notify_changed: an atomic flag and a post, never a wait). Thread-safe.

#include <functional>
#include <mutex>
#include <utility>

#include "client/status_model.h"

namespace client {

class StatusBoard {
 public:
  // Applies f(StatusModel&) under the lock, then tells the listener.
  template <class F>
  void update(F&& f) {
    std::function<void()> listener;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      f(model_);
      listener = listener_;
    }
    if (listener) listener();
  }
  StatusModel snapshot() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return model_;
  }
  // Called after every update, on the updating thread; must be cheap and must not call back
  // into this board. Empty: nobody listens.
  void set_listener(std::function<void()> listener) {
    std::lock_guard<std::mutex> lock(mutex_);
    listener_ = std::move(listener);
  }

 private:
  mutable std::mutex mutex_;
  StatusModel model_;
  std::function<void()> listener_;
};

}  // namespace client
