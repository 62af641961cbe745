#include "model/issue_bounds.hpp"

namespace gpuwcrt {

std::vector<IssueBounds<Time>> issue_bounds(const Workload& w) {
    return issue_bounds<Time>(w, [&w](std::size_t op, OpTime field) -> Time {
        const Operation& o = w.ops[op];
        switch (field) {
            case OpTime::lo:
                return o.time.lo;
            case OpTime::hi:
                return o.time.hi;
            case OpTime::issue_lo:
                return o.issue.at.lo;
            case OpTime::issue_hi:
                return o.issue.at.hi;
            case OpTime::delay:
                return o.issue.delay;
            case OpTime::release_lo:
                return o.issue.release ? o.issue.release->lo : Time(0);
            case OpTime::release_hi:
                return o.issue.release ? o.issue.release->hi : Time(0);
        }
        return 0;
    });
}

}  // namespace gpuwcrt
