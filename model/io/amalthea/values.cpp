#include "model/io/amalthea/values.hpp"

#include <limits>
#include <map>

#include "model/name_policy.hpp"

namespace gpuwcrt::amalthea {
namespace {

const std::initializer_list<const char*> bounded_discrete = {
    "DiscreteValueBoundaries", "DiscreteValueStatistics", "DiscreteValueUniformDistribution",
    "DiscreteValueWeibullEstimatorsDistribution", "DiscreteValueBetaDistribution"};
const std::initializer_list<const char*> bounded_time = {"TimeBoundaries", "TimeStatistics", "TimeUniformDistribution",
                                                         "TimeWeibullEstimatorsDistribution", "TimeBetaDistribution"};

bool one_of(const std::string& s, std::initializer_list<const char*> list) {
    for (const char* x : list)
        if (s == x) return true;
    return false;
}

std::string listed(std::initializer_list<const char*> list) {
    std::string out;
    for (const char* x : list) out += (out.empty() ? "" : ", ") + std::string(x);
    return out;
}

// An XML Schema number (xsd:long, xsd:double, xsd:BigInteger …) read exactly; "3/2" and "1_000",
// which gpuwcrt's own time literals allow, are not XML numbers.
Time number(const XmlSource& src, const pugi::xml_node& node, const char* attribute) {
    const std::string text = src.required(node, attribute);
    const bool xml_chars = !text.empty() && text.find_first_not_of("0123456789.eE+-") == std::string::npos;
    const TimeLiteral t = read_time_literal(text);
    if (!xml_chars || !t.value)
        throw InputError(src.where(node), "'" + std::string(attribute) + "' " + quoted_name(text.substr(0, 60)) + " " +
                                              (xml_chars ? t.problem : "is not a number"));
    return *t.value;
}

std::int64_t tick_count(const XmlSource& src, const pugi::xml_node& node, const char* attribute) {
    const Time v = number(src, node, attribute);
    if (boost::multiprecision::denominator(v) != 1 || v < 1 || v > std::numeric_limits<std::int64_t>::max())
        throw InputError(src.where(node), "'" + std::string(attribute) + "' = " + exact_string(v) +
                                              ": ticks must be an integer from 1 to 2^63-1 (a block takes time)");
    return static_cast<std::int64_t>(boost::multiprecision::numerator(v));
}

TimeRange checked_range(const XmlSource& src, const pugi::xml_node& node, Time lo, Time hi) {
    if (lo > hi)
        throw InputError(src.where(node),
                         "lowerBound " + exact_string(lo) + " is above upperBound " + exact_string(hi));
    return {lo, hi};
}

pugi::xml_node required_child(const XmlSource& src, const pugi::xml_node& node, const char* child) {
    const pugi::xml_node c = node.child(child);
    if (!c) throw InputError(src.where(node), "<" + std::string(node.name()) + "> needs a <" + child + "> element");
    return c;
}

}  // namespace

TimeRange tick_range(const XmlSource& src, const pugi::xml_node& value) {
    const std::string type = xsi_type(value);
    if (type == "DiscreteValueConstant") {
        const Time v = tick_count(src, value, "value");
        return {v, v};
    }
    const bool gauss = type == "DiscreteValueGaussDistribution";
    if (one_of(type, bounded_discrete) || (gauss && value.attribute("lowerBound") && value.attribute("upperBound")))
        return checked_range(src, value, tick_count(src, value, "lowerBound"), tick_count(src, value, "upperBound"));
    throw InputError(src.where(value),
                     "Ticks of form " + quoted_name(type.empty() ? "(no xsi:type)" : type) +
                         " cannot be read as a block time: gpuwcrt needs a constant or lower and upper bounds "
                         "(DiscreteValueConstant, " +
                         listed(bounded_discrete) + ", or DiscreteValueGaussDistribution with both bounds)");
}

Time time_ms(const XmlSource& src, const pugi::xml_node& time) {
    static const std::map<std::string, Time> per_ms = {
        {"s", 1000}, {"ms", 1}, {"us", Time(1, 1000)}, {"ns", Time(1, 1000000)}, {"ps", Time(1, 1000000000)}};
    const Time v = number(src, time, "value");
    const std::string unit = src.required(time, "unit");
    const auto it = per_ms.find(unit);
    if (it == per_ms.end())
        throw InputError(src.where(time), "time unit " + quoted_name(unit) + " is not one of s, ms, us, ns, ps");
    return v * it->second;
}

TimeRange time_range_ms(const XmlSource& src, const pugi::xml_node& deviation) {
    const std::string type = xsi_type(deviation);
    if (type == "TimeConstant") {
        const Time v = time_ms(src, required_child(src, deviation, "value"));
        return {v, v};
    }
    const bool gauss = type == "TimeGaussDistribution";
    if (one_of(type, bounded_time) || (gauss && deviation.child("lowerBound") && deviation.child("upperBound")))
        return checked_range(src, deviation, time_ms(src, required_child(src, deviation, "lowerBound")),
                             time_ms(src, required_child(src, deviation, "upperBound")));
    throw InputError(src.where(deviation), "time deviation of form " +
                                               quoted_name(type.empty() ? "(no xsi:type)" : type) +
                                               " has no bounds gpuwcrt can use (TimeConstant, " + listed(bounded_time) +
                                               ", or TimeGaussDistribution with both bounds)");
}

Time frequency_hz(const XmlSource& src, const pugi::xml_node& frequency) {
    static const std::map<std::string, Time> hz = {{"Hz", 1}, {"kHz", 1000}, {"MHz", 1000000}, {"GHz", 1000000000}};
    const Time v = number(src, frequency, "value");
    const std::string unit = src.required(frequency, "unit");
    const auto it = hz.find(unit);
    if (it == hz.end())
        throw InputError(src.where(frequency),
                         "frequency unit " + quoted_name(unit) + " is not one of Hz, kHz, MHz, GHz");
    if (v <= 0) throw InputError(src.where(frequency), "a frequency must be > 0, got " + exact_string(v));
    return v * it->second;
}

namespace {

// Bytes per unit of AMALTHEA's DataSizeUnit; nullopt for another name.
std::optional<Time> bytes_per_unit(const std::string& unit) {
    static const std::map<std::string, Time> bytes = [] {
        std::map<std::string, Time> m;
        const char* si[] = {"k", "M", "G", "T"};
        const char* iec[] = {"Ki", "Mi", "Gi", "Ti"};
        Time p10 = 1, p2 = 1;
        m["B"] = 1;
        m["bit"] = Time(1, 8);
        for (int i = 0; i < 4; ++i) {
            p10 *= 1000;
            p2 *= 1024;
            m[std::string(si[i]) + "B"] = p10;
            m[std::string(iec[i]) + "B"] = p2;
            m[std::string(si[i]) + "bit"] = p10 / 8;
            m[std::string(iec[i]) + "bit"] = p2 / 8;
        }
        return m;
    }();
    const auto it = bytes.find(unit);
    if (it == bytes.end()) return std::nullopt;
    return it->second;
}

}  // namespace

Time data_size_bytes(const XmlSource& src, const pugi::xml_node& size) {
    const Time v = number(src, size, "value");
    const std::string unit = src.required(size, "unit");
    const auto per = bytes_per_unit(unit);
    if (!per)
        throw InputError(src.where(size),
                         "data size unit " + quoted_name(unit) +
                             " is not one of B, kB, MB, GB, TB, KiB, MiB, GiB, TiB (or bit, kbit, ...)");
    if (v < 0) throw InputError(src.where(size), "a data size must be >= 0, got " + exact_string(v));
    return v * *per;
}

Time data_rate_bytes_per_ms(const XmlSource& src, const pugi::xml_node& rate) {
    const Time v = number(src, rate, "value");
    const std::string unit = src.required(rate, "unit");
    const std::string suffix = "PerSecond";
    const bool has_suffix =
        unit.size() > suffix.size() && unit.compare(unit.size() - suffix.size(), suffix.size(), suffix) == 0;
    const auto per = has_suffix ? bytes_per_unit(unit.substr(0, unit.size() - suffix.size())) : std::nullopt;
    if (!per)
        throw InputError(src.where(rate), "data rate unit " + quoted_name(unit) +
                                              " is not a data size unit followed by PerSecond (e.g. GBPerSecond)");
    if (v <= 0) throw InputError(src.where(rate), "a data rate must be > 0, got " + exact_string(v));
    return v * *per / 1000;
}

std::optional<std::int64_t> integer_property(const XmlSource& src, const pugi::xml_node& owner, const char* key,
                                             std::int64_t min, std::int64_t max) {
    pugi::xml_node found;
    for (const pugi::xml_node& p : owner.children("customProperties")) {
        if (std::string(p.attribute("key").value()) != key) continue;
        if (found) throw InputError(src.where(p), "custom property '" + std::string(key) + "' is given twice");
        found = p;
    }
    if (!found) return std::nullopt;
    const pugi::xml_node v = required_child(src, found, "value");
    const std::string type = xsi_type(v);
    if (type != "IntegerObject" && type != "LongObject" && type != "StringObject")
        throw InputError(src.where(v), "custom property '" + std::string(key) +
                                           "' must be an IntegerObject, "
                                           "LongObject or StringObject holding an integer, not " +
                                           quoted_name(type));
    const Time n = number(src, v, "value");
    if (boost::multiprecision::denominator(n) != 1 || n < min || n > max)
        throw InputError(src.where(v), "custom property '" + std::string(key) + "' = " + exact_string(n) +
                                           " must be an integer from " + std::to_string(min) + " to " +
                                           std::to_string(max));
    return static_cast<std::int64_t>(boost::multiprecision::numerator(n));
}

}  // namespace gpuwcrt::amalthea
