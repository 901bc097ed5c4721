// Each subcommand's options: the functions the table in app/command_table.cpp names. Each
// adds its options to the subcommand main made for it and returns what runs it (app/command.h).
#pragma once

#include "app/command.h"

// app/usi_command.cpp, app/perft_command.cpp
CommandRun add_usi_options(CLI::App& sub);
CommandRun add_perft_options(CLI::App& sub);
CommandRun add_bench_options(CLI::App& sub);
// app/match_command.cpp, app/csa_command.cpp, app/server_command.cpp
CommandRun add_match_options(CLI::App& sub);
CommandRun add_csa_options(CLI::App& sub);
CommandRun add_server_options(CLI::App& sub);
// app/council_command.cpp
CommandRun add_council_options(CLI::App& sub);
// app/records_command.cpp
CommandRun add_records_check_options(CLI::App& sub);
CommandRun add_records_convert_options(CLI::App& sub);
CommandRun add_records_time_use_options(CLI::App& sub);
// app/book_command.cpp, app/book_query_command.cpp, app/book_think_command.cpp
CommandRun add_book_import_options(CLI::App& sub);
CommandRun add_book_export_options(CLI::App& sub);
CommandRun add_book_stats_options(CLI::App& sub);
CommandRun add_book_query_options(CLI::App& sub);
CommandRun add_book_bench_options(CLI::App& sub);
CommandRun add_book_think_options(CLI::App& sub);
CommandRun add_book_merge_options(CLI::App& sub);
// app/mate_command.cpp, app/svm_command.cpp
CommandRun add_mate_options(CLI::App& sub);
CommandRun add_svm_predict_options(CLI::App& sub);
CommandRun add_svm_data_options(CLI::App& sub);
CommandRun add_svm_train_options(CLI::App& sub);
CommandRun add_svm_test_options(CLI::App& sub);
CommandRun add_svm_bench_options(CLI::App& sub);
// app/learn_train_command.cpp, app/learn_fit_command.cpp, app/learn_label_command.cpp,
// app/learn_curve_command.cpp, app/learn_teach_command.cpp
CommandRun add_learn_train_options(CLI::App& sub);
CommandRun add_learn_fit_options(CLI::App& sub);
CommandRun add_learn_label_options(CLI::App& sub);
CommandRun add_learn_curve_options(CLI::App& sub);
CommandRun add_learn_teach_options(CLI::App& sub);
// app/sprt_command.cpp, app/tune_command.cpp, app/gensfen_command.cpp, app/nnue_command.cpp
CommandRun add_sprt_options(CLI::App& sub);
CommandRun add_tune_options(CLI::App& sub);
CommandRun add_gensfen_options(CLI::App& sub);
CommandRun add_nnue_train_options(CLI::App& sub);
CommandRun add_nnue_quantise_options(CLI::App& sub);
CommandRun add_nnue_eval_options(CLI::App& sub);
