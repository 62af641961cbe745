#pragma once
// The value forms of AMALTHEA that the importer reads, each with its element's position in
// errors: discrete values (Ticks), times (stimuli), frequencies (hardware) and integer custom
// properties. docs/decisions/0018-amalthea-import.md says why each form maps as it does.
#include <cstdint>
#include <optional>
#include <string>

#include "model/io/amalthea/xml_source.hpp"
#include "model/workload.hpp"

namespace gpuwcrt::amalthea {

// A Ticks value (IDiscreteValueDeviation): DiscreteValueConstant -> [v, v]; every bounded form
// (…Boundaries, …Statistics, …UniformDistribution, …WeibullEstimatorsDistribution,
// …BetaDistribution, and …GaussDistribution when it gives both bounds) -> [lowerBound,
// upperBound]. Integers 1 .. 2^63-1; any other form is an InputError naming the supported ones.
TimeRange tick_range(const XmlSource& src, const pugi::xml_node& value);

// A Time element (<offset value="10" unit="ms"/>) in milliseconds, exactly; s, ms, us, ns, ps.
Time time_ms(const XmlSource& src, const pugi::xml_node& time);

// A time deviation (ITimeDeviation, e.g. a stimulus' jitter) as [lower, upper] in ms:
// TimeConstant -> its value; the bounded Time… forms -> their lowerBound/upperBound children.
TimeRange time_range_ms(const XmlSource& src, const pugi::xml_node& deviation);

// A Frequency element (<defaultValue value="1.3" unit="GHz"/>) in Hz, exactly; > 0.
Time frequency_hz(const XmlSource& src, const pugi::xml_node& frequency);

// A DataSize element (<size value="2" unit="MB"/>) in bytes, exactly: B, kB, MB, GB, TB (powers
// of 1000), KiB, MiB, GiB, TiB (powers of 1024), and the same in bit (kbit, Kibit, ...); >= 0.
Time data_size_bytes(const XmlSource& src, const pugi::xml_node& size);

// A DataRate element (<dataRate value="20" unit="GBPerSecond"/>) in bytes per millisecond,
// exactly: any DataSize unit followed by "PerSecond"; > 0.
Time data_rate_bytes_per_ms(const XmlSource& src, const pugi::xml_node& rate);

// The integer value of custom property `key` of `owner` (IntegerObject, LongObject, or a
// StringObject holding an integer), range-checked to [min, max]; nullopt when absent.
std::optional<std::int64_t> integer_property(const XmlSource& src, const pugi::xml_node& owner, const char* key,
                                             std::int64_t min, std::int64_t max);

}  // namespace gpuwcrt::amalthea
