#include "solver/exact/distributed/exchange.hpp"

#include <cstring>
#include <new>
#include <stdexcept>

#include "solver/exact/distributed/comm.hpp"
#include "solver/exact/varint.hpp"

namespace gpuwcrt::exact::distributed {
namespace {

constexpr auto round_interval = std::chrono::milliseconds(250);

std::uint64_t read_fixed64(std::string_view in, std::size_t& at) {
    if (at + 8 > in.size()) throw std::logic_error("exact engine across processes: a truncated message");
    std::uint64_t v = 0;
    std::memcpy(&v, in.data() + at, 8);
    at += 8;
    return v;
}

std::string_view read_bytes(std::string_view in, std::size_t& at, std::size_t n) {
    if (at + n > in.size()) throw std::logic_error("exact engine across processes: a truncated message");
    const std::string_view v = in.substr(at, n);
    at += n;
    return v;
}

}  // namespace

void write_child(const ChildView& c, std::string& out) {
    put_varint(out, c.level);
    put_varint(out, c.now);
    out.append(reinterpret_cast<const char*>(&c.path), 8);
    put_varint(out, c.from);
    put_varint(out, static_cast<std::int64_t>(c.choice_len));
    for (std::size_t i = 0; i < c.choice_len; ++i) put_varint(out, c.choice[i]);
    put_varint(out, static_cast<std::int64_t>(c.key.size()));
    out += c.key;
    put_varint(out, static_cast<std::int64_t>(c.issues.size()));
    out += c.issues;
}

ChildView read_child(std::string_view in, std::size_t& at, std::vector<int>& choices) {
    VarintReader r{in, at};
    ChildView c;
    c.level = static_cast<int>(r.get());
    c.now = r.get();
    c.path = read_fixed64(in, r.at);
    c.from = static_cast<std::uint32_t>(r.get());
    c.choice_len = static_cast<std::size_t>(r.get());
    choices.clear();
    for (std::size_t i = 0; i < c.choice_len; ++i) choices.push_back(static_cast<int>(r.get()));
    c.choice = choices.data();
    const auto key_len = static_cast<std::size_t>(r.get());
    c.key = read_bytes(in, r.at, key_len);
    const auto issues_len = static_cast<std::size_t>(r.get());
    c.issues = read_bytes(in, r.at, issues_len);
    at = r.at;
    return c;
}

Exchange::Exchange(int processes, std::size_t round_bytes)
    : processes_(processes),
      round_bytes_(round_bytes),
      queues_(static_cast<std::size_t>(processes)),
      receive_(static_cast<std::size_t>(processes), 0),
      receive_at_(static_cast<std::size_t>(processes), 0),
      last_(std::chrono::steady_clock::now()) {}

std::size_t Exchange::queued() const {
    std::size_t n = 0;
    for (const std::string& q : queues_) n += q.size();
    return n;
}

bool Exchange::due() const {
    return queued() >= round_bytes_ || std::chrono::steady_clock::now() - last_ >= round_interval;
}

std::size_t Exchange::bytes() const {
    std::size_t n = out_.capacity() + in_.capacity();
    for (const std::string& q : queues_) n += q.capacity();
    return n;
}

RoundOutcome Exchange::round(bool done, std::optional<StopReason> stop) {
    std::vector<int> send(static_cast<std::size_t>(processes_), 0);
    bool failed = false;
    try {  // packing and the receive buffer may not fit: then every process stops, and no one sends
        out_.clear();
        for (int p = 0; p < processes_; ++p) {
            send[static_cast<std::size_t>(p)] = static_cast<int>(queues_[static_cast<std::size_t>(p)].size());
            out_ += queues_[static_cast<std::size_t>(p)];
        }
    } catch (const std::bad_alloc&) {
        failed = true;
    }
    receive_ = exchange_counts(send);
    std::size_t total = 0;
    for (int p = 0; p < processes_; ++p) {
        receive_at_[static_cast<std::size_t>(p)] = static_cast<int>(total);
        total += static_cast<std::size_t>(receive_[static_cast<std::size_t>(p)]);
    }
    try {
        in_.resize(total);
    } catch (const std::bad_alloc&) {
        failed = true;
    }
    std::vector<std::int64_t> flags{done ? 0 : 1, stop_code(failed ? StopReason::memory : stop), failed ? 1 : 0};
    max_over_processes(flags);
    if (flags[2] == 0) {
        exchange_bytes(out_, send, in_, receive_);
        bytes_sent += static_cast<long long>(out_.size());
    } else {
        in_.clear();
        std::fill(receive_.begin(), receive_.end(), 0);
    }
    for (std::string& q : queues_) q.clear();
    last_ = std::chrono::steady_clock::now();
    return {flags[0] == 0, stop_of_code(flags[1])};
}

std::string_view Exchange::received(int process) const {
    return std::string_view(in_).substr(static_cast<std::size_t>(receive_at_[static_cast<std::size_t>(process)]),
                                        static_cast<std::size_t>(receive_[static_cast<std::size_t>(process)]));
}

}  // namespace gpuwcrt::exact::distributed
