// SPSA: parameter files, gains, perturbations, updates and the resumable state.
#include "tools/match/spsa.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include "base/words.h"
#include "shogi/csa_record.h"
#include "tools/common/splitmix.h"

namespace tools {

using base::Status;

namespace {

std::string spsa_trim(std::string_view s) { return std::string(base::trim_blanks(s)); }

bool parse_double(const std::string& text, double& out) {
  const std::string t = spsa_trim(text);
  if (t.empty()) return false;
  char* end = nullptr;
  out = std::strtod(t.c_str(), &end);
  return *end == '\0' && std::isfinite(out);
}

// "NAME, VALUE, MIN, MAX, C_END, R_END" -> p; the error says which field.
Status parse_param_line(const std::string& line, SpsaParam& p) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string f; std::getline(in, f, ',');) fields.push_back(spsa_trim(f));
  if (fields.size() != 6)
    return Status::error("expected NAME, VALUE, MIN, MAX, C_END, R_END (6 fields), got " +
                         std::to_string(fields.size()));
  p.name = fields[0];
  if (p.name.empty() || p.name.find_first_of(" \t") != std::string::npos)
    return Status::error("bad name '" + p.name + "'");
  const char* what[5] = {"VALUE", "MIN", "MAX", "C_END", "R_END"};
  double* slots[5] = {&p.value, &p.min, &p.max, &p.c_end, &p.r_end};
  for (int i = 0; i < 5; ++i)
    if (!parse_double(fields[size_t(i) + 1], *slots[i]))
      return Status::error(std::string(what[i]) + " '" + fields[size_t(i) + 1] +
                           "' is not a number");
  if (!(p.min < p.max)) return Status::error(p.name + ": MIN must be below MAX");
  if (p.value < p.min || p.value > p.max) return Status::error(p.name + ": VALUE outside MIN..MAX");
  if (!(p.c_end > 0)) return Status::error(p.name + ": C_END must be positive");
  if (!(p.r_end > 0)) return Status::error(p.name + ": R_END must be positive");
  return Status::ok();
}

std::string number(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string param_line(const SpsaParam& p) {
  return p.name + ", " + number(p.value) + ", " + number(p.min) + ", " + number(p.max) + ", " +
         number(p.c_end) + ", " + number(p.r_end);
}

}  // namespace

Status parse_spsa_params(const std::string& text, const std::string& input_name,
                         std::vector<SpsaParam>& out) {
  std::vector<SpsaParam> params;
  std::set<std::string> names;
  std::istringstream in(text);
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    if (spsa_trim(line).empty()) continue;
    SpsaParam p;
    if (Status s = parse_param_line(line, p); !s)
      return Status::error(input_name + ":" + std::to_string(line_number) + ": " + s.message());
    if (!names.insert(p.name).second)
      return Status::error(input_name + ":" + std::to_string(line_number) + ": " + p.name +
                           " is listed twice");
    params.push_back(p);
  }
  if (params.empty()) return Status::error(input_name + ": no parameters");
  out = std::move(params);
  return Status::ok();
}

Status load_spsa_params(const std::string& path, std::vector<SpsaParam>& out) {
  std::string text;
  if (Status s = shogi::read_record_file_text(path, text); !s) return s;
  return parse_spsa_params(text, path, out);
}

std::string format_spsa_params(const std::vector<SpsaParam>& params, const std::string& header) {
  std::string s;
  if (!header.empty()) s += "# " + header + "\n";
  s += "# NAME, VALUE, MIN, MAX, C_END, R_END\n";
  for (const SpsaParam& p : params) s += param_line(p) + "\n";
  return s;
}

double SpsaSchedule::c(const SpsaParam& p, int k) const {
  return p.c_end * std::pow(double(iterations), gamma) / std::pow(double(k + 1), gamma);
}

double SpsaSchedule::r(const SpsaParam& p, int k) const {
  const double big_a = a_fraction * iterations;
  const double a = p.r_end * p.c_end * p.c_end * std::pow(big_a + iterations, alpha);
  const double ck = c(p, k);
  return a / std::pow(big_a + k + 1, alpha) / (ck * ck);
}

uint64_t spsa_random(uint64_t seed, int k, uint64_t purpose) {
  // splitmix64 over a key made of the three: the same value everywhere.
  return splitmix64_mix(seed * 0x9E3779B97F4A7C15ull + uint64_t(k) * 0xD1B54A32D192ED03ull +
                        purpose * 0xA24BAED4963EE407ull + 0x632BE59BD9B4E019ull);
}

SpsaPerturbation spsa_perturbation(const std::vector<SpsaParam>& params, const SpsaSchedule& s,
                                   int k, uint64_t seed) {
  SpsaPerturbation out;
  for (size_t i = 0; i < params.size(); ++i) {
    const SpsaParam& p = params[i];
    const int sign = (spsa_random(seed, k, 3 * i) & 1) ? 1 : -1;
    const double ck = s.c(p, k);
    auto rounded = [&](double x, uint64_t purpose) {
      const double u = double(spsa_random(seed, k, purpose) >> 11) * 0x1.0p-53;
      return int(std::floor(std::clamp(x, p.min, p.max) + u));
    };
    out.sign.push_back(sign);
    out.plus.push_back(std::clamp(rounded(p.value + sign * ck, 3 * i + 1), int(std::ceil(p.min)),
                                  int(std::floor(p.max))));
    out.minus.push_back(std::clamp(rounded(p.value - sign * ck, 3 * i + 2), int(std::ceil(p.min)),
                                   int(std::floor(p.max))));
  }
  return out;
}

void spsa_update(std::vector<SpsaParam>& params, const SpsaSchedule& s, int k,
                 const SpsaPerturbation& perturbation, int result) {
  for (size_t i = 0; i < params.size(); ++i) {
    SpsaParam& p = params[i];
    p.value =
        std::clamp(p.value + s.r(p, k) * s.c(p, k) * result * perturbation.sign[i], p.min, p.max);
  }
}

std::string format_spsa_state(const SpsaState& st) {
  std::string s = "# sashite tune state: rewritten after every pair; delete it to start afresh\n";
  s += "iterations_done " + std::to_string(st.iterations_done) + "\n";
  s += "total_iterations " + std::to_string(st.total_iterations) + "\n";
  s += "seed " + std::to_string(st.seed) + "\n";
  s += "plus_wins " + std::to_string(st.plus_wins) + "\n";
  s += "plus_losses " + std::to_string(st.plus_losses) + "\n";
  s += "draws " + std::to_string(st.draws) + "\n";
  for (const SpsaParam& p : st.params) s += "param " + param_line(p) + "\n";
  return s;
}

Status parse_spsa_state(const std::string& text, const std::string& input_name, SpsaState& out) {
  SpsaState st;
  std::istringstream in(text);
  int line_number = 0;
  bool have_done = false, have_total = false;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    line = spsa_trim(line);
    if (line.empty()) continue;
    auto fail = [&](const std::string& why) {
      return Status::error(input_name + ":" + std::to_string(line_number) + ": " + why);
    };
    const size_t space = line.find(' ');
    const std::string key = line.substr(0, space);
    const std::string rest = space == std::string::npos ? "" : spsa_trim(line.substr(space + 1));
    if (key == "param") {
      SpsaParam p;
      if (Status s = parse_param_line(rest, p); !s) return fail(s.message());
      st.params.push_back(p);
      continue;
    }
    char* end = nullptr;
    const long long v = std::strtoll(rest.c_str(), &end, 10);
    if (rest.empty() || *end != '\0' || v < 0) return fail("bad value for '" + key + "'");
    if (key == "iterations_done") {
      st.iterations_done = int(v);
      have_done = true;
    } else if (key == "total_iterations") {
      st.total_iterations = int(v);
      have_total = true;
    } else if (key == "seed") {
      st.seed = uint64_t(v);
    } else if (key == "plus_wins") {
      st.plus_wins = v;
    } else if (key == "plus_losses") {
      st.plus_losses = v;
    } else if (key == "draws") {
      st.draws = v;
    } else {
      return fail("unknown key '" + key + "'");
    }
  }
  if (!have_done || !have_total || st.params.empty())
    return Status::error(input_name +
                         ": not a tune state (iterations_done, total_iterations and "
                         "param lines are needed)");
  out = std::move(st);
  return Status::ok();
}

}  // namespace tools
