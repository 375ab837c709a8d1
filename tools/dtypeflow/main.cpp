//===- tools/dtypeflow/main.cpp - the dtypeflow command line --------------===//
#include "commands.h"
#include "output.h"
#include "frontends/text/printable.h"

#include <fmt/format.h>
#include <cstdlib>
#include <iostream>
#include <vector>

int main(int argc, char **argv) {
  // libzip dates every member of an archive with mktime, and glibc's mktime stats
  // /etc/localtime on every call while TZ is unset (2,200 calls for densenet121's
  // .pt2, about 5 ms). TZ naming that same file is read once.
  if (!std::getenv("TZ")) setenv("TZ", ":/etc/localtime", 0);
  CLI::App app{"dtypeflow: the dtype (and rank) of every tensor in a PyTorch program,\n"
               "computed the way PyTorch computes it (2.14 or 1.13: --torch), without running anything."};
  app.require_subcommand(1);
  app.set_version_flag("--version", fmt::format("dtypeflow {} (PyTorch semantics: {}; default --torch {})",
                                                DTF_VERSION, dtf::supportedTorchVersions(), name(dtf::kNewestTorch)));
  app.footer(
      "Operand notation (result-type, promote-types, infer-op):\n"
      "  DTYPE:rN   tensor of that dtype and rank N     float32:r2, int8:r0\n"
      "  DTYPE      tensor of unknown rank              int64\n"
      "  ?:rN, ?    tensor of unknown dtype\n"
      "  bool int float complex number   a Python number of that kind\n"
      "  True 3 -1 2.5 1j                 a Python number literal\n"
      "  None  [0,1]  [float16:r1,int64:r1]  'floor'   (infer-op arguments)\n"
      "Dtype names: bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64\n"
      "  complex32 complex64 complex128 qint8 quint8 qint32 quint4x2 quint2x4, and aliases\n"
      "  (half, long, cfloat, torch.float ...); with --torch 2.14 also uint16 uint32 uint64\n"
      "  float8_e4m3fn float8_e5m2 float8_e4m3fnuz float8_e5m2fnuz float8_e8m0fnu\n"
      "  float4_e2m1fn_x2 bcomplex32 bits8 bits16 bits1x8 bits2x4 bits4x2 int1-int7 uint1-uint7.\n"
      "Exit codes (every command): 0 clean, 1 PyTorch would raise a dtype error or check found a\n"
      "  wrong dtype, 2 bad input (or the output could not be written), 3 internal error (a bug\n"
      "  in dtypeflow: please report it).");

  std::vector<std::pair<CLI::App *, dtf::cli::Action>> actions;
  auto reg = [&](auto add) {
    size_t before = app.get_subcommands({}).size();
    dtf::cli::Action a = add(app);
    actions.emplace_back(app.get_subcommands({})[before], std::move(a));
  };
  reg(dtf::cli::addResultType);
  reg(dtf::cli::addPromoteTypes);
  reg(dtf::cli::addInferOp);
  reg(dtf::cli::addOps);
  reg(dtf::cli::addAnnotate);
  reg(dtf::cli::addCheck);
  reg(dtf::cli::addVersions);
  reg(dtf::cli::addExplain);
  reg(dtf::cli::addAudit);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::cerr << "dtypeflow: " << dtf::ir::printable(e.what(), 4000) << "\n";
    return 2;
  }
  try {
    for (auto &[sub, action] : actions)
      if (sub->parsed()) {
        int code = action();
        dtf::cli::finishStdout(); // a result that was not written is no success
        return code;
      }
  } catch (const dtf::api::ProgramError &e) { // names its file already
    std::cerr << e.what() << "\n";
    return dtf::api::kBadInput;
  } catch (const dtf::cli::UsageError &e) {
    std::cerr << "dtypeflow: " << dtf::ir::printable(e.what(), 4000) << "\n";
    return dtf::api::kBadInput;
  } catch (const dtf::cli::OutputError &e) {
    std::cerr << "dtypeflow: " << e.what() << "\n";
    return dtf::api::kBadInput;
  } catch (const std::exception &e) {
    std::cerr << "dtypeflow: internal error (a bug: please report it with the input): "
              << dtf::ir::printable(e.what(), 4000) << "\n";
    return dtf::api::kInternal;
  }
  return 2;
}
