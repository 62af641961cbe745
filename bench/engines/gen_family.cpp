// Writes the benchmark workloads of bench/engines as TOML files, so that every engine runs
// through the command line (its whole cost: loading, analysis, witness replay, output) and
// /usr/bin/time can measure each run's peak memory on its own.
//   gen_family wcrt N RUNS DIR       bench/wcrt's family: N kernels in N streams, seed 1000·N + r
//   gen_family pipeline S RUNS DIR   model/generate/pipeline_workload: S streams × 4 iterations × 4 ops, seed r + 1
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "model/generate/pipeline_workload.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"

using namespace gpuwcrt;

int main(int argc, char** argv) {
    if (argc != 5) {
        std::cerr << "usage: gen_family wcrt|pipeline SIZE RUNS DIR\n";
        return 2;
    }
    const std::string family = argv[1], dir = argv[4];
    const int size = std::atoi(argv[2]), runs = std::atoi(argv[3]);
    if (size < 1 || size > 1000 || runs < 1 || runs > 1000 || (family != "wcrt" && family != "pipeline")) {
        std::cerr << "gen_family: bad arguments\n";
        return 2;
    }
    for (int r = 0; r < runs; ++r) {
        Workload w;
        TomlWriteOptions to;
        std::string name;
        if (family == "wcrt") {
            RandomWorkloadSpec spec;
            spec.kernels = size;
            spec.streams = size;
            const std::uint64_t seed = 1000 * static_cast<std::uint64_t>(size) + static_cast<std::uint64_t>(r);
            w = random_workload(spec, seed);
            to.title = "bench/wcrt family n=" + std::to_string(size) + " run " + std::to_string(r) + " (seed " +
                       std::to_string(seed) + ")";
            name = "wcrt-n" + std::to_string(size) + "-run" + std::to_string(r) + ".toml";
        } else {
            PipelineSpec spec;
            spec.streams = size;
            w = pipeline_workload(spec, static_cast<std::uint64_t>(r) + 1);
            to.title = "pipeline family, " + std::to_string(size) + " streams, run " + std::to_string(r) + " (seed " +
                       std::to_string(r + 1) + ")";
            name = "pipeline-s" + std::to_string(size) + "-run" + std::to_string(r) + ".toml";
        }
        std::ofstream out(dir + "/" + name);
        out << workload_to_toml(w, to);
        if (!out) {
            std::cerr << "gen_family: cannot write " << dir << "/" << name << "\n";
            return 1;
        }
        std::cout << dir << "/" << name << "\n";
    }
    return 0;
}
