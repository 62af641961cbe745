#pragma once
#include <stdexcept>
#include <string>

namespace gpuwcrt {

struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;
    std::string str() const {
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

}  // namespace gpuwcrt
