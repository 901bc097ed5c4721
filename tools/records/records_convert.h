// `sashite records convert`: CSA records to KIF (棋譜 for ShogiHome, Kifu for Windows), and back.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tools {

// What `sashite records convert` is asked to do.
struct RecordsConvertOptions {
  std::string to;                  // "kif" or "csa": the format to write
  std::string out_dir;             // "": each output beside its input
  std::vector<std::string> paths;  // files, or directories searched recursively
};

// Converts every record under options.paths to options.to. A directory is searched
// recursively for the other format's files (.csa for --to kif; .kif and .kifu for --to csa,
// the extension in any case); a file named on the command line is read whatever its
// extension, its format told by the extension (.csa, .kif, .kifu) or else by its content.
// Each record is read (and replayed) with read_csa_record or read_kif_record and written with
// write_kif_record or write_csa_record (V3.0) to "<stem>.kifu" (UTF-8 KIF, the extension
// Kakinoki's format gives UTF-8 files) or "<stem>.csa", beside the input or under out_dir
// (created if missing), through base::replace_file. Every failure is one line on `out`
// naming the file and the place ("PATH:LINE:COL: message"), and a directory without records
// to convert is one; the other files are still converted. Ends with "records: N converted, M
// failed". Returns 0 when nothing failed, 1 when something did.
// REQUIRES: options.to is "kif" or "csa" (the command line checks it).
int run_records_convert(const RecordsConvertOptions& options, std::ostream& out);

}  // namespace tools
