#include "limited_run.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace gpuwcrt::fuzz {
namespace {

int open_for_child(const std::string& path, int flags) {
    const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    return fd;
}

void set_limit(int resource, std::uint64_t value) {
    const rlimit r{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
    ::setrlimit(resource, &r);
}

}  // namespace

RunOutcome run_limited(const std::vector<std::string>& argv, const std::string& stdout_path,
                       const std::string& stderr_path, const Limits& limits) {
    // Everything the child needs is prepared before fork: between fork and exec only
    // async-signal-safe calls, since other threads may hold locks at the time of the fork.
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const int in = open_for_child("/dev/null", O_RDONLY);
    const int out = open_for_child(stdout_path, O_WRONLY | O_CREAT | O_TRUNC);
    const int err = open_for_child(stderr_path, O_WRONLY | O_CREAT | O_TRUNC);

    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);
        const rlimit cpu{limits.cpu_seconds, limits.cpu_seconds + 1};
        ::setrlimit(RLIMIT_CPU, &cpu);
        set_limit(RLIMIT_AS, limits.address_space);
        set_limit(RLIMIT_FSIZE, limits.file_size);
        set_limit(RLIMIT_CORE, 0);
        ::dup2(in, 0);
        ::dup2(out, 1);
        ::dup2(err, 2);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    ::close(in);
    ::close(out);
    ::close(err);
    if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    ::setpgid(pid, pid);  // also here: no window in which the kill below misses the group

    RunOutcome r;
    int status = 0;
    rusage usage{};
    auto pause = std::chrono::microseconds(200);
    for (;;) {
        const pid_t w = ::wait4(pid, &status, WNOHANG, &usage);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        if (elapsed.count() > limits.wall_seconds) {
            ::kill(-pid, SIGKILL);  // before the reap, so the group id cannot belong to anyone else yet
            ::wait4(pid, &status, 0, &usage);
            r.killed_by_limit = true;
            break;
        }
        std::this_thread::sleep_for(pause);
        if (pause < std::chrono::milliseconds(10)) pause *= 2;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto secs = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    r.cpu_seconds = secs(usage.ru_utime) + secs(usage.ru_stime);
    if (!r.killed_by_limit) {
        if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
        else if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
        // SIGXCPU at the soft limit, SIGKILL at the hard one when SIGXCPU is caught or ignored.
        if (r.signal == SIGXCPU || (r.signal == SIGKILL && r.cpu_seconds >= limits.cpu_seconds)) {
            r.over_cpu_limit = true;
            r.signal = 0;
        }
    }
    return r;
}

}  // namespace gpuwcrt::fuzz
