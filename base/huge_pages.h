// Memory for the large hash tables (the search's and the mate solver's): aligned to 2 MB and
// advised as transparent huge pages, so that random probes do not also miss the TLB.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

namespace base {

struct HugePagesDeleter {
  void operator()(void* p) const;
};

// `bytes` rounded up to whole 2 MB pages, uninitialised; throws std::bad_alloc.
std::unique_ptr<void, HugePagesDeleter> allocate_huge_pages(size_t bytes);

// An array of `count` default-constructed T in such memory. T must be trivially
// destructible (the memory is released without running destructors).
template <typename T>
std::unique_ptr<T[], HugePagesDeleter> make_huge_page_array(size_t count) {
  static_assert(std::is_trivially_destructible_v<T>);
  void* memory = allocate_huge_pages(count * sizeof(T)).release();
  T* array = static_cast<T*>(memory);
  for (size_t i = 0; i < count; ++i) new (&array[i]) T();
  return std::unique_ptr<T[], HugePagesDeleter>(array);
}

}  // namespace base
