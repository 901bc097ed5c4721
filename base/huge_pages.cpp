// Huge-page allocation: std::aligned_alloc to 2 MB, then madvise(MADV_HUGEPAGE) where the
// kernel has it (with THP in "madvise" mode, as Debian ships it, nothing else asks for them).
#include "base/huge_pages.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace base {

void HugePagesDeleter::operator()(void* p) const { std::free(p); }

std::unique_ptr<void, HugePagesDeleter> allocate_huge_pages(size_t bytes) {
  constexpr size_t kHugePage = size_t(2) << 20;
  const size_t rounded = (std::max<size_t>(bytes, 1) + kHugePage - 1) / kHugePage * kHugePage;
  void* memory = std::aligned_alloc(kHugePage, rounded);
  if (!memory) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(memory, rounded, MADV_HUGEPAGE);
#endif
  return std::unique_ptr<void, HugePagesDeleter>(memory);
}

}  // namespace base
