// Tests for usi::UsiEngineProcess: how an engine that ends before its handshake is reported.
#include "usi/usi_engine_process.h"

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>

namespace {

using usi::EngineConfig;
using usi::EngineFault;
using usi::UsiEngineProcess;
using Ms = std::chrono::milliseconds;

// An engine that closes its input at once and exits a little later: the first write ("usi")
// fails whenever it comes after the close, as it does when a program that is no USI engine
// exits before we write to it.
EngineConfig closing_engine() {
  EngineConfig config;
  config.command = "/bin/sh -c 'exec <&-; sleep 0.2; exit 3'";
  return config;
}

// Checks that `reply` says the engine exited before usiok (the words of an engine that exits
// while we wait for it), with its exit status.
void check_exited_before_usiok(const usi::EngineReply& reply, int status) {
  CHECK(reply.fault == EngineFault::kExited);
  CHECK_MESSAGE(
      reply.detail.find("closed its output while we waited for usiok") != std::string::npos,
      reply.detail);
  CHECK_MESSAGE(
      reply.detail.find("exited with status " + std::to_string(status)) != std::string::npos,
      reply.detail);
}

}  // namespace

TEST_CASE("usi engine process: an engine gone before the first write is reported as exited") {
  UsiEngineProcess process;
  REQUIRE(process.start(closing_engine()).is_ok());
  std::this_thread::sleep_for(Ms(100));  // its input closed: the write of "usi" fails
  check_exited_before_usiok(process.start_session({}, Ms(5000)), 3);
}

TEST_CASE("usi engine process: an engine that exits while we wait for usiok") {
  UsiEngineProcess process;
  EngineConfig config;
  config.command = "/bin/sh -c 'read line; echo \"id name half\"; exit 4'";
  REQUIRE(process.start(config).is_ok());
  check_exited_before_usiok(process.start_session({}, Ms(5000)), 4);
}
