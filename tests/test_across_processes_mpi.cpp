// Runs across MPI processes (docs/theory/distributed.md), compiled only when MPI is: the exact search run
// by mpirun on this machine with 1, 2 and 3 processes answers what the search in one process
// answers — values, statuses and witnesses — on seeded workloads with every feature the exact
// engine accepts; a process killed in the middle ends the run with an error and no answer; a
// warp sweep split over the processes prints what one process prints.
// Open MPI refuses to run as root (CI does) unless two variables say so: each command sets them
// for itself, never for the machine.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "model/validate.hpp"
#include "solver/exact/distributed/search.hpp"
#include "solver/exact/explorer.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

std::string mpi_quoted(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// `mpirun` with R processes on this machine, more than its cores allowed; `env`: assignments
// (NAME=value) for this command only.
std::string mpirun_line(int processes, const std::string& env = "") {
    return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + env + " " + mpi_quoted(GPUWCRT_MPIEXEC) +
           " --oversubscribe -np " + std::to_string(processes) + " ";
}

test::CliRun run_shell(const std::string& line) {
    const std::string dir = test::temp_dir();
    const std::string out = dir + "/out", err = dir + "/err";
    const int status = std::system((line + " </dev/null >" + mpi_quoted(out) + " 2>" + mpi_quoted(err)).c_str());
    test::CliRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = test::slurp(out);
    r.err = test::slurp(err);
    std::filesystem::remove_all(dir);
    return r;
}

test::CliRun run_gpuwcrt_under_mpirun(int processes, const std::vector<std::string>& args,
                                      const std::string& env = "") {
    std::string line = mpirun_line(processes, env) + mpi_quoted(GPUWCRT_BINARY);
    for (const std::string& a : args) line += " " + mpi_quoted(a);
    return run_shell(line);
}

// Every feature the exact engine accepts, a few on each seed: copies on 1–2 copy engines, a
// high-priority stream, the NULL stream, after_stream_idle, staggered issues, registers and
// shared memory, 1–3 SMs, block-time intervals and issue windows (the tick grid), and waits.
Workload featured_workload(std::uint64_t seed) {
    RandomWorkloadSpec s;
    s.kernels = 4 + static_cast<int>(seed % 4);
    s.streams = 2 + static_cast<int>((seed / 4) % 3);
    s.shared_kib = {0, 16, 32};
    s.registers = {0, 16, 32};
    s.max_blocks = 4;
    s.max_block_time = 4;
    s.staggered_issue = seed % 2 == 1;
    s.sms = 1 + static_cast<int>((seed / 3) % 3);
    s.copy_engines = 1 + static_cast<int>((seed / 5) % 2);
    s.copy_percent = seed % 3 == 0 ? 30 : 0;
    s.high_priority_streams = seed % 5 == 1 ? 1 : 0;
    s.null_stream = seed % 7 == 2;
    s.after_idle_percent = seed % 4 == 3 ? 40 : 0;
    if (seed % 6 == 4) {  // the grid: intervals and windows of two values each
        s.block_time_denominator = 2;
        s.interval_percent = 30;
        s.window_percent = 30;
        s.max_blocks = 2;
    }
    Workload w = random_workload(s, 55000 + seed);
    if (seed % 5 == 3 && w.null_stream() < 0) {  // W1 (refused beside a NULL stream)
        std::mt19937_64 rng(seed);
        for (std::size_t i = 1; i < w.ops.size(); ++i) {
            std::vector<int> earlier;
            for (std::size_t d = 0; d < i; ++d)
                if (w.ops[d].stream != w.ops[i].stream) earlier.push_back(static_cast<int>(d));
            if (!earlier.empty() && rng() % 2 == 0) w.ops[i].wait.push_back(earlier[rng() % earlier.size()]);
        }
        validate_workload(w);
    }
    return w;
}

// The bench/wcrt family (bench/README.md) at n kernels: levels of thousands of states.
Workload bench_family(int n, std::uint64_t seed) {
    RandomWorkloadSpec s;
    s.kernels = n;
    s.streams = n;
    return random_workload(s, seed);
}

// `mpirun -np 2 gpuwcrt wcrt FILE --engine exact --json --timeout S` started in the background,
// its stdout and stderr in the files `out` and `err`: its pid (mpirun is this process's child).
pid_t start_exact_search_under_mpirun(const std::string& file, const std::string& out, const std::string& err,
                                      const char* timeout_s) {
    const pid_t mpirun = fork();
    if (mpirun == 0) {
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
        const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || dup2(o, STDOUT_FILENO) < 0 || dup2(e, STDERR_FILENO) < 0) _exit(127);
        execl(GPUWCRT_MPIEXEC, GPUWCRT_MPIEXEC, "--oversubscribe", "-np", "2", GPUWCRT_BINARY, "wcrt", file.c_str(),
              "--engine", "exact", "--json", "--timeout", timeout_s, static_cast<char*>(nullptr));
        _exit(127);
    }
    return mpirun;
}

// The stats' states per level add up to the states stored, in one process and across several.
void require_level_states_add_up(const test::CliRun& r) {
    const nlohmann::json stats = nlohmann::json::parse(r.out, nullptr, false)["stats"];
    REQUIRE(stats.contains("level_states"));
    long long sum = 0;
    for (const auto& n : stats["level_states"]) sum += n.get<long long>();
    CHECK(sum == stats["states"].get<long long>());
    CHECK(stats["level_states"].size() <= stats["levels"].get<std::size_t>() + 1);
}

nlohmann::json operations_of(const test::CliRun& r) {
    const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    return j.is_discarded() ? nlohmann::json() : j["operations"];
}

// `gpuwcrt ARGS` alone and under mpirun with 1, 2 and 3 processes: the same exit code and the
// same operations (values, statuses, witnesses); with more than one process the search ran
// across them.
void require_same_across_processes(const std::vector<std::string>& args, const std::string& env = "") {
    const test::CliRun alone = test::run_cli(args);
    INFO("alone: exit " << alone.exit_code << ", " << alone.err);
    REQUIRE((alone.exit_code == 0 || alone.exit_code == 2));
    const nlohmann::json expected = operations_of(alone);
    REQUIRE(expected.is_array());
    require_level_states_add_up(alone);
    for (int processes : {1, 2, 3}) {
        const test::CliRun r = run_gpuwcrt_under_mpirun(processes, args, env);
        INFO(processes << " processes: exit " << r.exit_code << ", " << r.err);
        CHECK(r.exit_code == alone.exit_code);
        CHECK(operations_of(r) == expected);
        require_level_states_add_up(r);
        const nlohmann::json stats = nlohmann::json::parse(r.out, nullptr, false)["stats"];
        if (processes > 1) CHECK(stats.value("processes", 1) == processes);
        else CHECK_FALSE(stats.contains("processes"));
    }
}

}  // namespace

TEST_CASE("wcrt --engine exact under mpirun: 1, 2 and 3 processes answer what one process answers", "[slow]") {
    const std::string dir = test::temp_dir();
    const char* policies[] = {"any", "most-room", "first-fit", "round-robin"};
    for (std::uint64_t seed = 1; seed <= 9; ++seed) {
        const std::string file =
            test::write_file(dir, "w" + std::to_string(seed) + ".toml", workload_to_toml(featured_workload(seed)));
        INFO("seed " << seed);
        require_same_across_processes({"wcrt", file, "--engine", "exact", "--json", "--policy", policies[seed % 4]});
    }
    // Thousands of states per level: exchange rounds of 64 bytes, hundreds per level.
    const std::string bench = test::write_file(dir, "n7.toml", workload_to_toml(bench_family(7, 7001)));
    require_same_across_processes({"wcrt", bench, "--engine", "exact", "--json"}, "GPUWCRT_EXCHANGE_BYTES=64");
    std::filesystem::remove_all(dir);
}

TEST_CASE("certify --engine exact and wcrt's default plan under mpirun answer what one process answers", "[slow]") {
    const std::string dir = test::temp_dir();
    const std::string file = test::write_file(dir, "n6.toml", workload_to_toml(bench_family(6, 6002)));
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"certify", file, "--engine", "exact", "--bound", "K1=9", "--bound", "K3=7",
                                   "--json"},
          std::vector<std::string>{"wcrt", file, "--json"}}) {
        const test::CliRun alone = test::run_cli(args);
        const test::CliRun spread = run_gpuwcrt_under_mpirun(2, args);
        INFO(args[0] << ": " << alone.err << " / " << spread.err);
        CHECK(spread.exit_code == alone.exit_code);
        const nlohmann::json a = nlohmann::json::parse(alone.out, nullptr, false);
        const nlohmann::json b = nlohmann::json::parse(spread.out, nullptr, false);
        REQUIRE_FALSE(a.is_discarded());
        REQUIRE_FALSE(b.is_discarded());
        CHECK(a["operations"] == b["operations"]);
    }
    std::filesystem::remove_all(dir);
}

namespace {

// The workloads the driver below compares on: its count from GPUWCRT_TEST_WORKLOADS (default 500).
std::uint64_t driver_workloads() {
    const char* v = std::getenv("GPUWCRT_TEST_WORKLOADS");
    return v ? std::strtoull(v, nullptr, 10) : 500;
}

void check_same_answers(const Workload& w, const ExactResult& alone, const ExactResult& spread) {
    CHECK(spread.complete == alone.complete);
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        INFO("operation " << w.ops[op].name);
        const WcrtAnswer &a = alone.wcrt[op], &b = spread.wcrt[op];
        CHECK(b.status == a.status);
        CHECK(b.unknown_reason == a.unknown_reason);
        CHECK(b.lower == a.lower);
        CHECK(b.upper == a.upper);
        CHECK(b.witness.has_value() == a.witness.has_value());
        if (!a.witness || !b.witness) continue;
        CHECK(b.witness->launch_order == a.witness->launch_order);
        CHECK(b.witness->sm == a.witness->sm);
        CHECK(b.witness->block_time == a.witness->block_time);
        CHECK(b.witness->issue == a.witness->issue);
    }
}

}  // namespace

// Run by mpirun (the next test, and bench/mpi/same_answers.sh): rank 0 runs, on each seeded
// workload, the search across every process and the search in rank 0 alone, and compares their
// answers; the other processes serve rank 0's searches.
TEST_CASE("exact search across processes: the driver that mpirun starts in every process", "[.][mpi-driver]") {
    int provided = 0, rank = 0, size = 1;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0) {
        exact::distributed::serve();
        MPI_Finalize();
        return;
    }
    struct Release {  // however the checks end, the other processes are let go
        ~Release() {
            exact::distributed::release(0);
            MPI_Finalize();
        }
    } release;
    const char* policies[] = {"any", "most-room", "first-fit", "round-robin"};
    int grid = 0, waits = 0, spread_runs = 0;
    for (std::uint64_t seed = 1; seed <= driver_workloads(); ++seed) {
        const Workload w = seed % 10 == 9 ? bench_family(6, 6000 + seed) : featured_workload(seed);
        EngineOptions o;
        o.policy = *parse_policy(policies[seed % 4]);
        o.threads = 1 + static_cast<int>(seed % 2);
        ExactSearchOptions one;
        one.one_process = true;
        INFO("seed " << seed << ", policy " << policies[seed % 4]);
        const ExactResult alone = exact_wcrt(w, o, Budget{}, one);
        const ExactResult spread = exact_wcrt(w, o, Budget{});
        spread_runs += spread.stats.processes == size;
        check_same_answers(w, alone, spread);
        grid += !alone.wcrt.empty() && alone.wcrt[0].unknown_reason == "grid";
        waits += w.has_wait();
    }
    CHECK(spread_runs == static_cast<int>(driver_workloads()));
    std::cout << "compared " << driver_workloads() << " workloads across " << size << " processes (" << grid
              << " on the tick grid, " << waits << " with waits)" << std::endl;
}

TEST_CASE("exact search across 3 processes: the same answers and witnesses as one process on 500 seeded workloads",
          "[slow]") {
    char self[4096] = {};
    REQUIRE(readlink("/proc/self/exe", self, sizeof self - 1) > 0);
    const test::CliRun r = run_shell(mpirun_line(3) + mpi_quoted(self) + " '[mpi-driver]'");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("compared 500 workloads across 3 processes"));
}

TEST_CASE("a process of a run across processes killed in the middle: an error, a non-zero exit, nothing on stdout",
          "[slow]") {
    const std::string dir = test::temp_dir();
    const std::string file = test::write_file(dir, "n10.toml", workload_to_toml(bench_family(10, 10000)));
    const std::string out = dir + "/out", err = dir + "/err";
    const pid_t mpirun = start_exact_search_under_mpirun(file, out, err, "60");
    REQUIRE(mpirun > 0);
    struct Reap {  // a failed check leaves no run behind: mpirun (our child) ends its processes
        pid_t pid;
        bool done = false;
        ~Reap() {
            if (done) return;
            kill(pid, SIGTERM);
            waitpid(pid, nullptr, 0);
        }
    } reap{mpirun};
    // Rank 1 among mpirun's own children, once it has worked a second (the search is under way).
    pid_t victim = -1;
    for (int tries = 0; tries < 300 && victim < 0; ++tries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        for (const auto& e : std::filesystem::directory_iterator("/proc")) {
            const std::string name = e.path().filename().string();
            if (name.find_first_not_of("0123456789") != std::string::npos) continue;  // not a process
            const std::string stat = test::slurp(e.path().string() + "/stat");
            const std::size_t close = stat.rfind(')');
            if (close == std::string::npos) continue;
            std::istringstream fields(stat.substr(close + 2));
            std::string state;
            long parent = 0, skip = 0, user_ticks = 0;
            fields >> state >> parent;
            for (int i = 0; i < 9; ++i) fields >> skip;
            fields >> user_ticks;
            if (parent != mpirun || user_ticks < sysconf(_SC_CLK_TCK)) continue;
            if (test::contains(test::slurp(e.path().string() + "/environ"),
                               std::string("OMPI_COMM_WORLD_RANK=1\0", 23)))
                victim = static_cast<pid_t>(std::stol(e.path().filename().string()));
        }
    }
    REQUIRE(victim > 0);
    kill(victim, SIGKILL);
    int status = 0;
    for (int tries = 0; tries < 600 && waitpid(mpirun, &status, WNOHANG) == 0; ++tries)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const std::string printed = test::slurp(out), said = test::slurp(err);
    INFO(said);
    reap.done = WIFEXITED(status) || WIFSIGNALED(status);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) != 0);
    CHECK(printed.empty());
    CHECK_THAT(said, Catch::Contains("rank 1") && Catch::Contains("signal 9"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("warp-sweep under mpirun: the points split over 1, 2 and 3 processes print what one process prints",
          "[slow]") {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"warp-sweep", "--threads", "16:160:16", "--rep", "1:4", "--csv"},
          std::vector<std::string>{"warp-sweep", "--threads", "32:96:32", "--rep", "2:3", "--engine", "both"},
          std::vector<std::string>{"warp-sweep", "--threads", "16:64:16", "--rep", "1:3", "--fail-on-refuted"}}) {
        const test::CliRun alone = test::run_cli(args);
        INFO(args[3] << " " << args[5] << ": exit " << alone.exit_code << ", " << alone.err);
        REQUIRE_FALSE(alone.out.empty());
        for (int processes : {1, 2, 3}) {
            const test::CliRun r = run_gpuwcrt_under_mpirun(processes, args);
            INFO(processes << " processes: " << r.err);
            CHECK(r.exit_code == alone.exit_code);
            CHECK(r.out == alone.out);
        }
    }
    // An odd number of points over 2 processes: rank 0 has one more.
    const std::vector<std::string> odd{"warp-sweep", "--threads", "16:48:16", "--rep", "1:1", "--csv"};
    const test::CliRun r = run_gpuwcrt_under_mpirun(2, odd);
    CHECK(r.exit_code == 0);
    CHECK(r.out == test::run_cli(odd).out);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 4);
}

TEST_CASE("SIGUSR1 to mpirun: every process agrees on the interrupt and rank 0 prints what is proven", "[slow]") {
    const std::string dir = test::temp_dir();
    const std::string file = test::write_file(dir, "n11.toml", workload_to_toml(bench_family(11, 11000)));
    const std::string out = dir + "/out", err = dir + "/err";
    const pid_t mpirun = start_exact_search_under_mpirun(file, out, err, "600");
    REQUIRE(mpirun > 0);
    // Once the search is under way across the processes (its first level lines on stderr).
    for (int tries = 0; tries < 300 && !test::contains(test::slurp(err), "states stored by 2 processes"); ++tries)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    kill(mpirun, SIGUSR1);  // forwarded to every process (Ctrl-C would end the job: mpirun's choice)
    int status = 0;
    for (int tries = 0; tries < 600 && waitpid(mpirun, &status, WNOHANG) == 0; ++tries)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!WIFEXITED(status) && !WIFSIGNALED(status)) {
        kill(mpirun, SIGKILL);
        waitpid(mpirun, &status, 0);
        FAIL("mpirun did not end within 60 s of the interrupt");
    }
    const nlohmann::json printed = nlohmann::json::parse(test::slurp(out), nullptr, false);
    INFO(test::slurp(err));
    REQUIRE_FALSE(printed.is_discarded());
    REQUIRE(printed["operations"].size() == 11);
    for (const auto& op : printed["operations"]) {
        CHECK(op["status"] == "unknown");
        CHECK(op["lower_bound"].is_string());  // the seeding run's replayed answers at least
    }
    CHECK(printed["stats"]["processes"] == 2);
    CHECK(printed["operations"][0]["unknown_reason"] == "interrupted");
    std::filesystem::remove_all(dir);
}
