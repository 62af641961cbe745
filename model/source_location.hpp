#pragma once
#include <stdexcept>
#include <string>

namespace gpuwcrt {

struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;
    // line 0: a place that is not a file position (a command-line option): no ":line:column".
    std::string str() const {
        if (line == 0) return file;
        return file + ":" + std::to_string(line) + ":" + std::to_string(column);
    }
};

// Bad input: printed as "file:line:column: message", exit code 3.
class InputError : public std::runtime_error {
public:
    InputError(SourceLocation where, const std::string& message)
        : std::runtime_error(where.str() + ": " + message), where_(std::move(where)), message_(message) {}
    const SourceLocation& where() const { return where_; }
    const std::string& message() const { return message_; }

private:
    SourceLocation where_;
    std::string message_;
};

// Bad command-line value, in the one format every CLI error uses:
// "gpuwcrt: --threads: must be a positive integer, got 0" (exit code 3).
inline InputError option_error(const std::string& option, const std::string& message) {
    return InputError({"gpuwcrt: " + option, 0, 0}, message);
}

}  // namespace gpuwcrt
