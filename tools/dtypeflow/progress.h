//===- tools/dtypeflow/progress.h - a progress line on a terminal -*- C++ -*-===//
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace dtf::cli {

/// What a long run is doing (`dtypeflow: model.ir: refining 1000000 nodes
/// (2.1 s)`), on stderr when it is a terminal and only once the work has
/// taken over a second; nothing otherwise. A thread of its own redraws the
/// line, so the work itself is not slowed.
class Progress {
public:
  Progress();
  ~Progress();
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  /// Start (or continue) showing `what`.
  void phase(std::string what);
  /// Clear the line and show nothing until the next phase (before other
  /// output on stderr).
  void pause();

private:
  void run();
  void clearLocked();
  const bool enabled_;
  const double showAfter_; ///< seconds a phase runs before it is shown
  std::mutex m_;
  std::condition_variable cv_;
  std::string what_;
  bool shown_ = false, stop_ = false;
  std::chrono::steady_clock::time_point since_;
  std::thread thread_;
};

} // namespace dtf::cli
