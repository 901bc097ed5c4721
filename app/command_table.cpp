// The table of build/sashite's subcommands: name, line of help, options. docs/commands.md
// describes each in full.
#include "app/command.h"
#include "app/commands.h"

const std::vector<Command>& command_table() {
  static const std::vector<Command> table = {
      {"usi", "the engine, speaking USI on standard input and output (for GUIs)", add_usi_options},
      {"perft", "count the leaves of the legal move tree", add_perft_options},
      {"bench",
       "search benchmark: fixed positions, one thread, fixed depth (--perft: move generation)",
       add_bench_options},
      {"match", "play games between two USI engines", add_match_options},
      {"council",
       "a council of USI engines voting on each move (majority or optimistic), itself a USI "
       "engine",
       add_council_options},
      {"csa", "play on a CSA server (floodgate, a championship, the local server)",
       add_csa_options},
      {"server",
       "a local CSA server (shogi-server rules) for tests, the demo and local tournaments",
       add_server_options},
      {"records", "work on CSA and KIF record files", nullptr},
      {"records check", "parse and replay every .csa file under the paths",
       add_records_check_options},
      {"records convert", "write each CSA record as KIF (.kifu, UTF-8) or each KIF record as CSA",
       add_records_convert_options},
      {"records time-use",
       "seconds per move by ply over CSA records, and the closest call to a time loss",
       add_records_time_use_options},
      {"book", "opening books: import, export, stats, query, think, merge", nullptr},
      {"book import", "add positions and moves to a book directory (created when missing)",
       add_book_import_options},
      {"book export", "write a book directory in another engine's format", add_book_export_options},
      {"book stats", "describe a book directory", add_book_stats_options},
      {"book query", "print the book positions similar to a position and the candidate moves",
       add_book_query_options},
      {"book bench",
       "time exact lookup and similar-position retrieval (optionally on a grown book)",
       add_book_bench_options},
      {"book think",
       "score book moves by searching with several USI engines (minimax over their "
       "best moves, docs/techniques.md §2)",
       add_book_think_options},
      {"book merge",
       "merge books into one (shards of book think, or think output into a book copy)",
       add_book_merge_options},
      {"mate",
       "solve mate problems: one SFEN per line on standard input (the side to move attacks); "
       "prints mate <line>|nomate|unknown, nodes and ms per position, then a total line",
       add_mate_options},
      {"svm", "mate prediction with a linear SVM: predict, data, train, test, bench", nullptr},
      {"svm predict", "read one SFEN per line on standard input; print 'mate|nomate PROBABILITY'",
       add_svm_predict_options},
      {"svm data",
       "build the labelled dataset from CSA records (last positions + a random shallow node)",
       add_svm_data_options},
      {"svm train",
       "train with LIBLINEAR, C by cross-validation; print Tables 3.1/3.2; write the model",
       add_svm_train_options},
      {"svm test", "a model's Tables 3.1/3.2 on a labelled dataset, and its accuracy by source",
       add_svm_test_options},
      {"svm bench", "time features plus prediction: nanoseconds per position",
       add_svm_bench_options},
      {"learn",
       "evaluation learning: train (comparison training), fit (value fitting on "
       "engine games), label (another engine's values on records, for fit), curve (the "
       "evaluation curve), teach (teacher moves from a multi-program search)",
       nullptr},
      {"learn train",
       "comparison training of the evaluation weights on teacher moves (1 ply + quiescence "
       "leaves, logistic pair loss, AdaGrad); writes a weight file",
       add_learn_train_options},
      {"learn fit",
       "value fitting of the evaluation weights on engine games: each move's PV leaf (the "
       "move plus quiescence) toward the engine's search value and the game's result "
       "(cross-entropy, AdaGrad); writes a weight file",
       add_learn_fit_options},
      {"learn label",
       "copies CSA records with another USI engine's search value of the position after "
       "each move as the move's value comment (Black's view), for learn fit (distillation)",
       add_learn_label_options},
      {"learn curve",
       "the evaluation curve: win rate of the side to move per evaluation bucket over "
       "the positions of decided games (docs/techniques.md §5), and the agreement rate",
       add_learn_curve_options},
      {"learn teach",
       "teacher moves for learning: the multi-program search of book think "
       "(docs/techniques.md §2) over positions, one line per position",
       add_learn_teach_options},
      {"sprt",
       "the match's SPRT (pentanomial, logistic Elo): the LLR of a table of pairs, or "
       "its error rates by simulation",
       add_sprt_options},
      {"tune", "SPSA tuning of engine parameters (USI options) by game pairs, resumable",
       add_tune_options},
      {"gensfen", "self-play training data: positions, search values, best moves, game results",
       add_gensfen_options},
      {"nnue", "the NNUE evaluation: train it, round it, look at its values", nullptr},
      {"nnue train",
       "train a network on gensfen data; writes the network and a checkpoint every epoch",
       add_nnue_train_options},
      {"nnue quantise",
       "round a training checkpoint's model anew to a network file, fitted to gensfen "
       "positions",
       add_nnue_quantise_options},
      {"nnue eval", "a network's value of positions (side to move's view)", add_nnue_eval_options},
  };
  return table;
}
