// The NNUE network file and its forward pass, plain and AVX2 (chosen at run time).
#include "engine/nnue/network.h"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/file_write.h"
#include "engine/names.h"

namespace engine::nnue {

namespace {

constexpr char kMagic[16] = "SASHITE-NNUE";
constexpr uint32_t kVersion = 1;

uint32_t fnv1a(const char* data, size_t size) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < size; ++i) h = (h ^ uint8_t(data[i])) * 16777619u;
  return h;
}

void put_u32(std::string& out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + i] = char((v >> (8 * i)) & 255);
}
uint32_t get_u32(const std::string& in, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(uint8_t(in[at + i])) << (8 * i);
  return v;
}

// Little-endian array writing and reading (x86-64 is little-endian; the copies keep it so
// on any host that is).
template <typename T>
void put_array(std::string& out, const T* data, size_t n) {
  out.append(reinterpret_cast<const char*>(data), n * sizeof(T));
}
template <typename T>
void get_array(const std::string& in, size_t& at, T* data, size_t n) {
  std::memcpy(data, in.data() + at, n * sizeof(T));
  at += n * sizeof(T);
}

constexpr size_t payload_size() {
  return kHidden * 2 + size_t(kFeatureNb) * kHidden * 2 + kL1Out * 4 + size_t(kL1Out) * kL1In +
         kL2Out * 4 + kL2Out * kL1Out + 4 + kL2Out;
}

// ---- the forward pass -------------------------------------------------------------------

inline int clamp_activation(int v) { return std::clamp(v, 0, kActivationOne); }

void activate_plain(const int16_t* own, const int16_t* other, uint8_t* x) {
  for (int i = 0; i < kHidden; ++i) {
    x[i] = uint8_t(clamp_activation(own[i]));
    x[kHidden + i] = uint8_t(clamp_activation(other[i]));
  }
}

// out[o] = clamp((bias[o] + w[o] . in) >> 6, 0, 127) over `in_nb` inputs.
void dense_plain(const uint8_t* in, int in_nb, const int8_t* w, const int32_t* bias, int out_nb,
                 uint8_t* out) {
  for (int o = 0; o < out_nb; ++o) {
    int32_t sum = bias[o];
    const int8_t* row = w + size_t(o) * in_nb;
    for (int i = 0; i < in_nb; ++i) sum += int32_t(row[i]) * int32_t(in[i]);
    out[o] = uint8_t(clamp_activation(sum >> kWeightShift));
  }
}

__attribute__((target("avx2"))) void activate_avx2(const int16_t* own, const int16_t* other,
                                                   uint8_t* x) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i top = _mm256_set1_epi16(kActivationOne);
  for (int half = 0; half < 2; ++half) {
    const int16_t* acc = half == 0 ? own : other;
    uint8_t* dst = x + half * kHidden;
    for (int i = 0; i < kHidden; i += 32) {
      __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i));
      __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i + 16));
      a = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
      b = _mm256_min_epi16(_mm256_max_epi16(b, zero), top);
      // packus interleaves the 128-bit lanes: put them back in order.
      __m256i packed = _mm256_packus_epi16(a, b);
      packed = _mm256_permute4x64_epi64(packed, 0xD8);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), packed);
    }
  }
}

__attribute__((target("avx2"))) inline int32_t horizontal_sum(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return _mm_cvtsi128_si32(s);
}

// REQUIRES: in_nb a multiple of 32. Inputs are 0..127 and weights -128..127, so maddubs's
// pair sums (at most 2 * 127 * 128 in size) never saturate: the result equals dense_plain's.
__attribute__((target("avx2"))) void dense_avx2(const uint8_t* in, int in_nb, const int8_t* w,
                                                const int32_t* bias, int out_nb, uint8_t* out) {
  const __m256i ones = _mm256_set1_epi16(1);
  for (int o = 0; o < out_nb; ++o) {
    const int8_t* row = w + size_t(o) * in_nb;
    __m256i sum = _mm256_setzero_si256();
    for (int i = 0; i < in_nb; i += 32) {
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + i));
      sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(a, b), ones));
    }
    out[o] = uint8_t(clamp_activation((bias[o] + horizontal_sum(sum)) >> kWeightShift));
  }
}

void add_row_plain(int16_t* acc, const int16_t* row) {
  for (int i = 0; i < kHidden; ++i) acc[i] = int16_t(acc[i] + row[i]);
}
void sub_row_plain(int16_t* acc, const int16_t* row) {
  for (int i = 0; i < kHidden; ++i) acc[i] = int16_t(acc[i] - row[i]);
}
__attribute__((target("avx2"))) void add_row_avx2(int16_t* acc, const int16_t* row) {
  for (int i = 0; i < kHidden; i += 16) {
    auto* a = reinterpret_cast<__m256i*>(acc + i);
    const auto* r = reinterpret_cast<const __m256i*>(row + i);
    _mm256_storeu_si256(a, _mm256_add_epi16(_mm256_loadu_si256(a), _mm256_loadu_si256(r)));
  }
}
__attribute__((target("avx2"))) void sub_row_avx2(int16_t* acc, const int16_t* row) {
  for (int i = 0; i < kHidden; i += 16) {
    auto* a = reinterpret_cast<__m256i*>(acc + i);
    const auto* r = reinterpret_cast<const __m256i*>(row + i);
    _mm256_storeu_si256(a, _mm256_sub_epi16(_mm256_loadu_si256(a), _mm256_loadu_si256(r)));
  }
}

bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
bool g_simd_allowed = true;
bool use_avx2() { return g_simd_allowed && cpu_has_avx2(); }

}  // namespace

const char* simd_name() { return use_avx2() ? "avx2" : "plain"; }
void set_simd(bool allowed) { g_simd_allowed = allowed; }

void add_row(int16_t* acc, const int16_t* row) {
  if (use_avx2())
    add_row_avx2(acc, row);
  else
    add_row_plain(acc, row);
}
void sub_row(int16_t* acc, const int16_t* row) {
  if (use_avx2())
    sub_row_avx2(acc, row);
  else
    sub_row_plain(acc, row);
}

Value Network::propagate(const int16_t* own, const int16_t* other) const {
  alignas(32) uint8_t x[kL1In];
  alignas(32) uint8_t h1[kL1Out];
  alignas(32) uint8_t h2[kL2Out];
  if (use_avx2()) {
    activate_avx2(own, other, x);
    dense_avx2(x, kL1In, l1_weight.data(), l1_bias.data(), kL1Out, h1);
    dense_avx2(h1, kL1Out, l2_weight.data(), l2_bias.data(), kL2Out, h2);
  } else {
    activate_plain(own, other, x);
    dense_plain(x, kL1In, l1_weight.data(), l1_bias.data(), kL1Out, h1);
    dense_plain(h1, kL1Out, l2_weight.data(), l2_bias.data(), kL2Out, h2);
  }
  int64_t out = out_bias;
  for (int i = 0; i < kL2Out; ++i) out += int32_t(out_weight[i]) * int32_t(h2[i]);
  const int64_t value = out * kValueScale / (kActivationOne * (1 << kWeightShift));
  return Value(std::clamp<int64_t>(value, kValueMatedInMaxPly + 1, kValueMateInMaxPly - 1));
}

// ---- the file -----------------------------------------------------------------------------

std::string Network::file_bytes() const {
  std::string payload;
  payload.reserve(payload_size());
  put_array(payload, ft_bias.data(), ft_bias.size());
  put_array(payload, ft_weight.data(), ft_weight.size());
  put_array(payload, l1_bias.data(), l1_bias.size());
  put_array(payload, l1_weight.data(), l1_weight.size());
  put_array(payload, l2_bias.data(), l2_bias.size());
  put_array(payload, l2_weight.data(), l2_weight.size());
  put_array(payload, &out_bias, 1);
  put_array(payload, out_weight.data(), out_weight.size());
  std::string header(kNetworkHeaderSize, '\0');
  std::memcpy(header.data(), kMagic, sizeof kMagic);
  put_u32(header, 16, kVersion);
  put_u32(header, 20, kFeatureNb);
  put_u32(header, 24, kHidden);
  put_u32(header, 28, kL1Out);
  put_u32(header, 32, kL2Out);
  put_u32(header, 36, kValueScale);
  put_u32(header, 40, fnv1a(payload.data(), payload.size()));
  return header + payload;
}

Status Network::save(const std::string& path) const { return replace_file(path, file_bytes()); }

Status Network::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error("NNUE file '" + path + "': cannot open it");
  // One read of the whole file (byte by byte, 14 MB took seconds under the sanitizers).
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return Status::error("NNUE file '" + path + "': cannot read it: " + ec.message());
  std::string bytes(size_t(size), '\0');
  in.read(bytes.data(), std::streamsize(size));
  if (in.bad() || size_t(in.gcount()) != bytes.size())
    return Status::error("NNUE file '" + path + "': read error");
  return parse(bytes, path);
}

Status Network::parse(const std::string& bytes, const std::string& name) {
  const std::string where = "NNUE file '" + name + "': ";
  if (bytes.size() < kNetworkHeaderSize || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return Status::error(where + "not a sashite NNUE file (no SASHITE-NNUE header)");
  if (const uint32_t v = get_u32(bytes, 16); v != kVersion)
    return Status::error(where + "version " + std::to_string(v) + ", this engine reads version " +
                         std::to_string(kVersion));
  const uint32_t shape[5] = {get_u32(bytes, 20), get_u32(bytes, 24), get_u32(bytes, 28),
                             get_u32(bytes, 32), get_u32(bytes, 36)};
  const uint32_t expected[5] = {kFeatureNb, kHidden, kL1Out, kL2Out, kValueScale};
  if (!std::equal(shape, shape + 5, expected)) {
    std::ostringstream msg;
    msg << where << "shape " << shape[0] << " features, " << shape[1] << "x2-" << shape[2] << "-"
        << shape[3] << "-1, scale " << shape[4] << "; this engine reads " << kFeatureNb
        << " features, " << kHidden << "x2-" << kL1Out << "-" << kL2Out << "-1, scale "
        << kValueScale;
    return Status::error(msg.str());
  }
  if (bytes.size() != kNetworkHeaderSize + payload_size())
    return Status::error(where + std::to_string(bytes.size()) + " bytes, expected " +
                         std::to_string(kNetworkHeaderSize + payload_size()) + " (cut short?)");
  if (fnv1a(bytes.data() + kNetworkHeaderSize, payload_size()) != get_u32(bytes, 40))
    return Status::error(where + "checksum mismatch (the file is damaged)");
  Network n;
  size_t at = kNetworkHeaderSize;
  get_array(bytes, at, n.ft_bias.data(), n.ft_bias.size());
  get_array(bytes, at, n.ft_weight.data(), n.ft_weight.size());
  get_array(bytes, at, n.l1_bias.data(), n.l1_bias.size());
  get_array(bytes, at, n.l1_weight.data(), n.l1_weight.size());
  get_array(bytes, at, n.l2_bias.data(), n.l2_bias.size());
  get_array(bytes, at, n.l2_weight.data(), n.l2_weight.size());
  get_array(bytes, at, &n.out_bias, 1);
  get_array(bytes, at, n.out_weight.data(), n.out_weight.size());
  *this = std::move(n);
  return Status::ok();
}

}  // namespace engine::nnue
