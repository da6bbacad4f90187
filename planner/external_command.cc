// The planner as a command (docs/verification.md#judging-your-own-planner): a process per schedule, or one
// persistent process that plans schedule after schedule.

#include <fmt/format.h>

#include <csignal>
#include <cstring>
#include <mutex>

#include "model/schedule_printer.h"
#include "planner/external.h"
#include "planner/external_process.h"

namespace planck {
namespace {

using external::Clock;
using external::ExitStatus;
using external::PlannerProcess;

// What the two kinds of command planner share: the command, its options,
// and its failures, each with the tail of its standard error.
class CommandPlannerBase : public Planner {
 public:
  CommandPlannerBase(std::string command, CommandOptions options)
      : command_(std::move(command)), options_(options) {}

  std::string_view name() const override { return command_; }

 protected:
  Error exited(const PlannerProcess& p, const ExitStatus& status) const {
    if (status.signaled) {
      return make(p, "planner-signal",
                  fmt::format("`{}` was killed by signal {} ({})", command_, status.value,
                              strsignal(status.value)));
    }
    // The shell runs the last command of CMD as its child and reports that
    // child's death by signal N as exit status 128 + N.
    if (const int sig = status.value - 128; sig > 0 && sig < NSIG) {
      return make(p, "planner-signal",
                  fmt::format("`{}` was killed by signal {} ({}; the shell's exit status was {})",
                              command_, sig, strsignal(sig), status.value));
    }
    const char* when = options_.persistent ? " before answering with a line `%%`" : "";
    return make(p, "planner-exit", fmt::format("`{}` exited with status {}{}", command_, status.value, when));
  }

  Error timed_out(const PlannerProcess& p) const {
    return make(p, "planner-timeout",
                fmt::format("`{}` gave no answer within {} s; its process group was killed", command_,
                            static_cast<double>(options_.timeout.count()) / 1000));
  }

  Error too_long(const PlannerProcess& p) const {
    return make(p, "planner-output",
                fmt::format("`{}` answered with more than {} bytes; its process group was killed",
                            command_, options_.max_output_bytes));
  }

  Result<Plan> parse(const PlannerProcess& p, std::string_view answer) const {
    if (std::optional<Error> refused = external::over_capacity_answer(answer, fmt::format("`{}`", command_))) return *refused;
    auto plan = parse_plan(answer, "planner output");
    if (plan) return plan;
    return make(p, "planner-output",
                fmt::format("`{}` answered with something that is not a plan file: {}", command_,
                            plan.error().message()),
                /*killed=*/false);
  }

  // `killed`: the failure ended the process, which a persistent planner
  // replaces for the next schedule.
  Error make(const PlannerProcess& p, const char* kind, std::string what, bool killed = true) const {
    if (options_.persistent && killed) what += " (a new process plans the next schedule)";
    const std::string tail = p.stderr_tail();
    what += tail.empty() ? "; its standard error was empty"
                         : "; its standard error ended with:\n" + tail.substr(0, tail.size() - 1);
    return Error{"", std::move(what), kind};
  }

  const std::string command_;
  const CommandOptions options_;
};

// A process for each schedule: the schedule on standard input, which is
// then closed; the answer is all of standard output; exit status 0.
class CommandPlanner final : public CommandPlannerBase {
 public:
  using CommandPlannerBase::CommandPlannerBase;

  Result<Plan> plan(const Schedule& s) const override {
    const auto deadline = Clock::now() + options_.timeout;
    PLANCK_ASSIGN(auto process, PlannerProcess::start(command_));
    std::string answer;
    const auto read = process->converse(print_schedule(s), /*close_input=*/true, /*delimited=*/false,
                                        deadline, options_.max_output_bytes, answer);
    if (read == PlannerProcess::Read::End) {
      if (std::optional<ExitStatus> status = process->wait_exit(deadline)) {
        process->kill();  // what the planner left running
        if (status->signaled || status->value != 0) return exited(*process, *status);
        return parse(*process, answer);
      }
    }
    process->kill();
    return read == PlannerProcess::Read::TooLong ? too_long(*process)
                                                 : timed_out(*process);
  }
};

// One process for every schedule, each request and each answer ended by a
// line `%%`. A process that fails but for its answer's text is replaced.
class PersistentCommandPlanner final : public CommandPlannerBase {
 public:
  using CommandPlannerBase::CommandPlannerBase;

  // The process is asked to end by the end of its input, and killed if it
  // has not within a second.
  ~PersistentCommandPlanner() override {
    if (!process_) return;
    process_->close_input();
    (void)process_->wait_exit(Clock::now() + std::chrono::seconds(1));
  }

  Result<Plan> plan(const Schedule& s) const override {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto deadline = Clock::now() + options_.timeout;
    if (!process_) {
      PLANCK_ASSIGN(process_, PlannerProcess::start(command_));
    }
    process_->forget_stderr();
    std::string request = print_schedule(s);
    if (!request.empty() && !request.ends_with('\n')) request += '\n';
    request += "%%\n";
    std::string answer;
    const auto read = process_->converse(request, /*close_input=*/false, /*delimited=*/true, deadline,
                                         options_.max_output_bytes, answer);
    if (read == PlannerProcess::Read::Answer) return parse(*process_, answer);

    std::optional<ExitStatus> status;
    if (read == PlannerProcess::Read::End) status = process_->wait_exit(deadline);
    process_->kill();
    const Error failure = status ? exited(*process_, *status)
                          : read == PlannerProcess::Read::TooLong ? too_long(*process_)
                                                                  : timed_out(*process_);
    process_.reset();
    return failure;
  }

 private:
  mutable std::mutex mutex_;
  mutable std::unique_ptr<PlannerProcess> process_;
};

}  // namespace

std::unique_ptr<Planner> make_command_planner(std::string command, CommandOptions options) {
  if (options.persistent) return std::make_unique<PersistentCommandPlanner>(std::move(command), options);
  return std::make_unique<CommandPlanner>(std::move(command), options);
}

}  // namespace planck
