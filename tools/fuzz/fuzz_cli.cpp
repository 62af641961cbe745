// Mutation fuzzer for the gpuwcrt command line: seeded mutants of the bundled cases
// and examiner files through simulate, rta, wcrt --timeout 1 and import-examiner, each run
// under a hard CPU-time limit (LIMIT_SECONDS), a wall-clock backstop of three times that, and a
// memory limit. No signal, no exit 4, no run over a limit and no output left by an input error
// may happen; every failure class is saved with a reproducer.
// Usage: fuzz_cli GPUWCRT SOURCE_DIR RUNS SEED LIMIT_SECONDS OUT_DIR [--jobs N] [--commands a,b]
//        [--only I]   (replays run I of that campaign alone and keeps its files in OUT_DIR/run-I)
// Exit 0 no failure, 1 failures (see the summary), 3 usage error.
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "commands.hpp"
#include "corpus.hpp"
#include "findings.hpp"
#include "limited_run.hpp"
#include "mutate.hpp"

namespace fz = gpuwcrt::fuzz;
namespace fs = std::filesystem;

namespace {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::uint64_t parse_count(const std::string& what, const std::string& text, std::uint64_t lo, std::uint64_t hi) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
        throw UsageError(what + ": must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                         ", got '" + text + "'");
    return v;
}

std::vector<const fz::Command*> parse_commands(const std::string& list) {
    std::vector<const fz::Command*> out;
    std::stringstream in(list);
    for (std::string name; std::getline(in, name, ',');) {
        const fz::Command* found = nullptr;
        for (const auto& c : fz::all_commands())
            if (c.key == name) found = &c;
        if (!found)
            throw UsageError("--commands: unknown command '" + name +
                             "' (simulate, simulate-svg, rta, wcrt, import-examiner, wcrt-enumerate)");
        out.push_back(found);
    }
    if (out.empty()) throw UsageError("--commands: give at least one command");
    return out;
}

std::string slurp(const fs::path& p, std::size_t max) {
    std::ifstream in(p, std::ios::binary);
    std::string s(max, '\0');
    in.read(s.data(), static_cast<std::streamsize>(max));
    s.resize(static_cast<std::size_t>(in.gcount()));
    return s;
}

struct Campaign {
    std::string binary;
    fz::Corpus corpus;
    std::uint64_t first = 0, runs = 0, seed = 0;  // runs first .. runs-1
    bool keep_every_run = false;
    fz::Limits limits;
    std::vector<const fz::Command*> commands;
    fs::path work;  // scratch: one folder per job
};

struct Progress {
    std::atomic<std::uint64_t> next{0};
    std::atomic<unsigned> finished{0};
    std::mutex mutex;
    std::string error;  // the first harness error (not a gpuwcrt failure): the campaign stops
};

void runs_of_one_job(const Campaign& c, unsigned job, std::atomic<std::uint64_t>& next, fz::Findings& findings) {
    const fs::path dir = c.work / ("job" + std::to_string(job));
    fs::create_directories(dir);
    for (std::uint64_t i; (i = c.first + next++) < c.runs;) {
        fz::Rng rng = fz::run_rng(c.seed, i);
        fz::RunRecord r;
        r.index = i;
        r.command = c.commands[i % c.commands.size()];
        r.mutant = fz::make_mutant(c.corpus, r.command->input, rng);
        r.input_path = (dir / (r.command->input == fz::Format::toml ? "input.toml" : "input.json")).string();
        r.output_path = (dir / (r.command->key == "import-examiner" ? "out.toml" : "out.svg")).string();
        std::ofstream(r.input_path, std::ios::binary | std::ios::trunc) << r.mutant.text;
        fs::remove(r.output_path);
        r.args = fz::command_args(*r.command, r.input_path, r.output_path, rng);
        std::vector<std::string> argv = {c.binary};
        argv.insert(argv.end(), r.args.begin(), r.args.end());
        r.outcome = fz::run_limited(argv, (dir / "stdout").string(), (dir / "stderr").string(), c.limits);
        r.stderr_text = slurp(dir / "stderr", 1 << 16);
        r.output_exists = fs::exists(r.output_path);
        const std::string cls = findings.add(r);
        if (c.keep_every_run) findings.keep(r, "run-" + std::to_string(i));
        if (!cls.empty()) std::cerr << "fuzz: run " << i << " " << r.command->key << ": " << cls << '\n';
    }
}

void worker(const Campaign& c, unsigned job, Progress& p, fz::Findings& findings) {
    try {
        runs_of_one_job(c, job, p.next, findings);
    } catch (const std::exception& e) {
        std::lock_guard lock(p.mutex);
        if (p.error.empty()) p.error = e.what();
        p.next = c.runs;
    }
    ++p.finished;
}

int run(int argc, char** argv) {
    std::vector<std::string> pos;
    unsigned jobs = 1;
    std::string command_list, only;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--jobs" || a == "--commands" || a == "--only") && i + 1 >= argc)
            throw UsageError(a + ": needs a value");
        if (a == "--only") only = argv[++i];
        else if (a == "--jobs") jobs = static_cast<unsigned>(parse_count("--jobs", argv[++i], 1, 64));
        else if (a == "--commands") command_list = argv[++i];
        else pos.push_back(a);
    }
    if (pos.size() != 6)
        throw UsageError(
            "usage: fuzz_cli GPUWCRT SOURCE_DIR RUNS SEED LIMIT_SECONDS OUT_DIR [--jobs N] [--commands a,b,...] "
            "[--only RUN]");
    Campaign c;
    c.binary = fs::absolute(pos[0]).string();
    if (::access(c.binary.c_str(), X_OK) != 0) throw UsageError("GPUWCRT: not an executable file: " + pos[0]);
    c.corpus = fz::load_corpus(pos[1]);
    c.runs = parse_count("RUNS", pos[2], 1, 100000000);
    c.seed = parse_count("SEED", pos[3], 0, UINT64_MAX);
    if (!only.empty()) {
        c.first = parse_count("--only", only, 0, c.runs - 1);
        c.runs = c.first + 1;
        c.keep_every_run = true;
    }
    c.limits.cpu_seconds = static_cast<unsigned>(parse_count("LIMIT_SECONDS", pos[4], 2, 3600));
    c.limits.wall_seconds = 3.0 * c.limits.cpu_seconds;
    const fs::path out_dir = pos[5];
    fs::create_directories(out_dir);
    c.commands = parse_commands(command_list.empty() ? "simulate,simulate-svg,rta,wcrt,import-examiner,wcrt-enumerate"
                                                     : command_list);
    char tmpl[] = "/tmp/gpuwcrt-fuzz-XXXXXX";
    if (!::mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    c.work = tmpl;

    fz::Findings findings(c.binary, out_dir.string(), c.seed, c.limits);
    Progress progress;
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (unsigned j = 0; j < jobs; ++j)
        threads.emplace_back(worker, std::cref(c), j, std::ref(progress), std::ref(findings));
    // Progress about every 10 s, from this thread, while the jobs run.
    for (bool done = false; !done;) {
        for (int t = 0; t < 100 && !(done = progress.finished == jobs); ++t)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (!done)
            std::cerr << "fuzz: " << findings.runs() << "/" << c.runs - c.first << " runs, " << findings.failures()
                      << " failures, "
                      << static_cast<long>(
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())
                      << " s\n";
    }
    for (auto& t : threads) t.join();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fs::remove_all(c.work);
    if (!progress.error.empty()) throw std::runtime_error(progress.error);
    const std::string summary = findings.summary(wall, jobs);
    std::ofstream(out_dir / "summary.txt") << summary;
    std::cout << summary;
    return findings.failures() == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const UsageError& e) {
        std::cerr << "fuzz_cli: " << e.what() << '\n';
        return 3;
    } catch (const std::exception& e) {
        std::cerr << "fuzz_cli: " << e.what() << '\n';
        return 3;
    }
}
