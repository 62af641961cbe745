// The all-time analysis merges through the answer type (bounds/answer.hpp): frames folded onto
// the file's operations by the join, arguments combined by the meet, whose contradiction check
// catches a replayed frame above a proven bound.
#include <catch2/catch.hpp>

#include "bounds/answer.hpp"
#include "model/frames/horizon.hpp"
#include "model/integer_time.hpp"
#include "solver/frames/frame_lower_bounds.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// Two streams sharing one SM's room: the camera's frames wait for the radar's blocks.
const std::string two_streams =
    "[[stream]]\nname = \"cam\"\nperiod = 10\n[[stream]]\nname = \"radar\"\nperiod = 20\n"
    "[[kernel]]\nname = \"detect\"\nstream = \"cam\"\nblocks = 4\nthreads = 1024\nblock_time = 2\n"
    "[[kernel]]\nname = \"track\"\nstream = \"radar\"\nblocks = 4\nthreads = 1024\nblock_time = 3\n";

using Cycles = BoundedAnswer<long long, int>;

}  // namespace

TEST_CASE("the meet of answers of any kind keeps the tighter bounds and refuses crossing ones", "[frames][merge]") {
    Cycles into, from;
    from.upper = 10;
    from.upper_by = Provenance::bounds;
    meet(into, from, Provenance::none, "worst case");
    CHECK(*into.upper == 10);
    Cycles witnessed;
    witnessed.lower = 10;
    witnessed.witness = 7;
    meet(into, witnessed, Provenance::explicit_state, "worst case");
    CHECK(into.status == WcrtStatus::exact);
    CHECK(into.lower_by == Provenance::explicit_state);
    CHECK(*into.witness == 7);
    Cycles above;
    above.lower = 11;
    CHECK_THROWS_AS(meet(into, above, Provenance::smt, "worst case"), BoundsContradict);
}

TEST_CASE("the join over frames keeps the largest bound of each side, with who gave it", "[frames][merge]") {
    WcrtAnswer op, first, second;
    first.upper = 5;
    first.upper_by = Provenance::interference;
    second.upper = 7;
    second.upper_by = Provenance::exact;
    second.lower = 4;
    join(op, first);
    join(op, second);
    join(op, first);
    CHECK(*op.upper == 7);
    CHECK(op.upper_by == Provenance::exact);
    CHECK(*op.lower == 4);
}

TEST_CASE("all-time: a replayed frame above an operation's proven bound throws, never a verdict", "[frames][merge]") {
    const Workload w = test::workload_from(two_streams);
    const Unrolled u = unroll(w, hyperperiods_of(w, 1));
    search::LowerBoundSearch s(u.workload, integer_times(u.workload), Policy::chooser, 3);
    s.run(50, Budget());
    FrameLowerBounds lower(w, u, hyperperiod(w));
    lower.offer_search(s, Budget());
    std::vector<WcrtAnswer> proven = unknown_answers(w);
    lower.fold_into(proven);  // what the frames reach, replayed: at least one block time each
    REQUIRE(proven[0].lower);
    REQUIRE(*proven[0].lower >= 2);
    REQUIRE(proven[0].frame);

    // An upper bound below what a frame was replayed to reach: one of the two is wrong.
    std::vector<WcrtAnswer> wrong = unknown_answers(w);
    wrong[0].upper = *proven[0].lower - 1;
    wrong[0].upper_by = Provenance::steady_state;
    CHECK_THROWS_AS(lower.fold_into(wrong), BoundsContradict);
    // At the bound itself they meet: exact, with the frame that reached it.
    std::vector<WcrtAnswer> tight = unknown_answers(w);
    tight[0].upper = proven[0].lower;
    lower.fold_into(tight);
    CHECK(tight[0].status == WcrtStatus::exact);
    CHECK(tight[0].frame == proven[0].frame);
}
