// `sashite records convert --to kif|csa [--out DIR] PATH...`: CSA and KIF records, each into
// the other.
#include "tools/records/records_convert.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

#include "base/file_write.h"
#include "base/status.h"
#include "base/text_lines.h"
#include "shogi/csa_record.h"
#include "shogi/kif_record.h"

namespace tools {

namespace {

enum class RecordFormat { kCsa, kKif };

// The format an extension names (".csa", ".kif", ".kifu" in any case); false for any other.
bool format_of_extension(const std::filesystem::path& file, RecordFormat& format) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](char c) { return char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
  if (ext == ".csa") {
    format = RecordFormat::kCsa;
    return true;
  }
  if (ext == ".kif" || ext == ".kifu") {
    format = RecordFormat::kKif;
    return true;
  }
  return false;
}

// The format of a record's text: CSA when its first line that is not a comment starts as a CSA
// line does (V2.2, N+, $KEY, P..., + or -; "'" comments), KIF otherwise ("#KIF", "手合割：").
RecordFormat format_of_content(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  base::TextLines lines(text);
  for (std::string_view line; lines.next(line);) {
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty()) continue;
    if (line.starts_with("#KIF")) return RecordFormat::kKif;
    if (line[0] == '#') continue;  // a KIF program comment
    const char c = line[0];
    if (c == '\'' || c == 'V' || c == 'N' || c == '$' || c == 'P' || c == '+' || c == '-' ||
        c == '%')
      return RecordFormat::kCsa;
    return RecordFormat::kKif;
  }
  return RecordFormat::kCsa;
}

// Appends the files under `path` that are in `from` format (a directory, recursively, sorted),
// or `path` itself when it names a file.
base::Status list_record_files(const std::string& path, RecordFormat from,
                               std::vector<std::string>& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return base::Status::error(path + ": no such file or directory");
  if (!fs::is_directory(status)) {
    out.push_back(path);
    return base::Status::ok();
  }
  std::vector<std::string> found;
  fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
  if (ec) return base::Status::error(path + ": cannot list the directory: " + ec.message());
  for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
    if (ec) return base::Status::error(path + ": cannot list the directory: " + ec.message());
    std::error_code file_ec;
    RecordFormat format;
    if (it->is_regular_file(file_ec) && format_of_extension(it->path(), format) && format == from)
      found.push_back(it->path().string());
  }
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
  return base::Status::ok();
}

// Reads `file`, converts it and writes the result; the error names the file.
base::Status convert_record_file(const std::string& file, RecordFormat to,
                                 const std::string& out_dir) {
  namespace fs = std::filesystem;
  std::ifstream in(file, std::ios::binary);
  if (!in) return base::Status::error(file + ": cannot open the file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return base::Status::error(file + ": read error");
  const std::string text = buffer.str();

  RecordFormat from;
  if (!format_of_extension(file, from)) from = format_of_content(text);
  if (from == to)
    return base::Status::error(file + ": already a " + (to == RecordFormat::kKif ? "KIF" : "CSA") +
                               " record");
  shogi::CsaRecord record;
  base::Status status = from == RecordFormat::kCsa ? shogi::read_csa_record(text, file, record)
                                                   : shogi::read_kif_record(text, file, record);
  if (!status) return status;

  fs::path target = out_dir.empty() ? fs::path(file).parent_path() : fs::path(out_dir);
  target /= fs::path(file).stem();
  target += to == RecordFormat::kKif ? ".kifu" : ".csa";
  const std::string output = to == RecordFormat::kKif
                                 ? shogi::write_kif_record(record)
                                 : shogi::write_csa_record(record, shogi::CsaVersion::kV30);
  return base::replace_file(target.string(), output);
}

}  // namespace

int run_records_convert(const RecordsConvertOptions& options, std::ostream& out) {
  const RecordFormat to = options.to == "kif" ? RecordFormat::kKif : RecordFormat::kCsa;
  const RecordFormat from = to == RecordFormat::kKif ? RecordFormat::kCsa : RecordFormat::kKif;
  if (!options.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.out_dir, ec);
    if (ec) {
      out << options.out_dir << ": cannot create the directory: " << ec.message() << "\n";
      return 1;
    }
  }
  int converted = 0, failed = 0;
  for (const std::string& path : options.paths) {
    std::vector<std::string> files;
    if (base::Status listed = list_record_files(path, from, files); !listed) {
      out << listed.message() << "\n";
      ++failed;
    } else if (files.empty()) {  // a directory without records: most likely the wrong one
      out << path << ": no "
          << (from == RecordFormat::kKif ? "KIF records (.kif, .kifu)" : "CSA records (.csa)")
          << " in the directory\n";
      ++failed;
    }
    for (const std::string& file : files) {
      if (base::Status status = convert_record_file(file, to, options.out_dir); !status) {
        out << status.message() << "\n";
        ++failed;
      } else {
        ++converted;
      }
    }
  }
  out << "records: " << converted << " converted, " << failed << " failed\n";
  out.flush();
  return failed == 0 ? 0 : 1;
}

}  // namespace tools
