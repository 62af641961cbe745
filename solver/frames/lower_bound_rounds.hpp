#pragma once
// The scenario searches of the all-time analysis' lower bounds on one set of frames, runnable in
// rounds: a run stopped between the upper-bound arguments (SIGINT, --timeout, --max-memory)
// keeps what the rounds so far replayed. The rounds are parts of one search, split by simulation
// counts (search::LowerBoundSearch::run_part), so that a run that ends on its own finds what
// the search run at once finds, whatever the rounds' times.
#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "common/budget.hpp"
#include "model/frames/unroll.hpp"
#include "sim/search/lower_bounds.hpp"
#include "solver/frames/all_time.hpp"
#include "solver/frames/frame_lower_bounds.hpp"

namespace gpuwcrt {

// The frames the lower bounds are searched on, and the instant before which their scenarios
// are the system's (docs/theory/all-time.md, fact 1).
struct LowerBoundHorizon {
    Horizon frames;
    Time end;
    int hyperperiods = 0;  // k when the frames are k hyperperiods, else 0
};

// As many hyperperiods as o allows, within about 2000 unrolled operations; when one
// hyperperiod holds more, the frames released up to a multiple of the longest period (up to
// o.max_hyperperiods of them) within that many, so that the search's cost does not grow with
// the hyperperiod.
LowerBoundHorizon lower_bound_horizon(const Workload& w, const AllTimeOptions& o);

// The operations one hyperperiod of `w` unrolls to.
Time unrolled_per_hyperperiod(const Workload& w);

// Replayed lower bounds from the scenario search, kept when the scenario is one of the system:
// each frame released at one instant (frames_consistent), every operation it bounds complete by
// the horizon's end, before any frame left out of `u` is released. First on `u`
// itself, then on its frames released without jitter, whose scenarios are scenarios of `u` with
// every frame released at the start of its window (the same operations, in the same order);
// last the phasings of sporadic streams.
class LowerBoundRounds {
public:
    // `w`: the file's workload; `u`: its frames over the horizon `h` (both outlive this).
    LowerBoundRounds(const Workload& w, const Unrolled& u, const Horizon& h, const AllTimeOptions& o);
    LowerBoundRounds(const LowerBoundRounds&) = delete;
    LowerBoundRounds& operator=(const LowerBoundRounds&) = delete;

    // Once `answered` holds, no further lower bound can change an answer (all_time.cpp says
    // when): the searches stop there, checked at doubling simulation counts. Without it they run
    // to their count.
    void stop_when(std::function<bool()> answered) { answered_ = std::move(answered); }

    // Continues every search up to `tenths` tenths of its simulations and offers their bests
    // to `lower` (whose frames are u).
    void run_to(int tenths, const Budget& budget, FrameLowerBounds& lower);
    // The rest of every search, each in its share of the time, then the phasings.
    void finish(const Budget& budget, FrameLowerBounds& lower);

    long long simulations() const { return simulations_; }

private:
    struct Searched {
        std::unique_ptr<Unrolled> frames;  // when the search is not on u itself
        const Workload* workload;
        std::unique_ptr<search::LowerBoundSearch> search;
        long count;             // run(count): count random scenarios, then count of the search
        long long counted = 0;  // its simulations already in simulations_
    };
    void count_simulations(Searched& s);
    // Runs `s` up to `target` simulations in all, its bests offered to `lower` after each part;
    // true once answered_ holds. Parts with rising targets find what one part finds
    // (LowerBoundSearch::run_part), so a search that is not stopped ends where it did at once.
    bool advance(Searched& s, long long target, const Budget& search, const Budget& budget, FrameLowerBounds& lower);
    bool answered() const { return answered_ && answered_(); }

    const Workload& w_;
    const Unrolled& u_;
    AllTimeOptions o_;
    std::vector<Searched> searched_;
    std::function<bool()> answered_;
    bool phasings_ = true;  // false where a search's times are finer than integer ticks
    Budget::Clock::duration spent_{};
    long long simulations_ = 0;
};

}  // namespace gpuwcrt
