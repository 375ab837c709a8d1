#include "progress.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace dtf::cli {

namespace {

/// After how long a phase is shown: 1 s, or DTYPEFLOW_PROGRESS_AFTER_MS (tests).
double showAfterSeconds() {
  const char *env = std::getenv("DTYPEFLOW_PROGRESS_AFTER_MS");
  return env ? std::atof(env) / 1000.0 : 1.0;
}

} // namespace

Progress::Progress() : enabled_(::isatty(STDERR_FILENO) == 1), showAfter_(showAfterSeconds()) {}

Progress::~Progress() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(m_);
    stop_ = true;
    clearLocked();
  }
  cv_.notify_all();
  thread_.join();
}

void Progress::phase(std::string what) {
  if (!enabled_) return;
  {
    std::lock_guard lock(m_);
    if (what_.empty()) since_ = std::chrono::steady_clock::now();
    what_ = std::move(what);
  }
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

void Progress::pause() {
  if (!enabled_) return;
  std::lock_guard lock(m_);
  clearLocked();
  what_.clear();
}

void Progress::clearLocked() {
  if (!shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

void Progress::run() {
  using namespace std::chrono_literals;
  std::unique_lock lock(m_);
  while (!stop_) {
    cv_.wait_for(lock, showAfter_ < 0.2 ? 20ms : 200ms);
    if (stop_ || what_.empty()) continue;
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count();
    if (s < showAfter_) continue;
    std::fprintf(stderr, "\r\033[Kdtypeflow: %s (%.1f s)", what_.c_str(), s);
    std::fflush(stderr);
    shown_ = true;
  }
}

} // namespace dtf::cli
