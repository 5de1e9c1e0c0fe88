#pragma once

#include "core/domain/error.h"

#include <cassert>
#include <type_traits>
#include <utility>
#include <variant>

namespace gq {

// A value or an Error: our small stand-in for std::expected<T, Error> (which needs
// C++23, and which clang 14 — used for the fuzzers — cannot compile from libstdc++ 12).
// Usage mirrors std::expected: `if (!r) return r.error(); use(*r);`.
template <typename T> class [[nodiscard]] Result {
public:
    Result(const T &value)
        : m_v(std::in_place_index<0>, value) {}
    Result(T &&value)
        : m_v(std::in_place_index<0>, std::move(value)) {}
    Result(const Error &error)
        : m_v(std::in_place_index<1>, error) {}
    Result(Error &&error)
        : m_v(std::in_place_index<1>, std::move(error)) {}

    [[nodiscard]] bool has_value() const noexcept { return m_v.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    T &value() & {
        assert(has_value());
        return std::get<0>(m_v);
    }
    const T &value() const & {
        assert(has_value());
        return std::get<0>(m_v);
    }
    T &&value() && {
        assert(has_value());
        return std::get<0>(std::move(m_v));
    }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }
    T &&operator*() && { return std::move(*this).value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }

    template <typename U> T value_or(U &&fallback) const & {
        return has_value() ? value() : T(std::forward<U>(fallback));
    }

    const Error &error() const & {
        assert(!has_value());
        return std::get<1>(m_v);
    }
    Error &error() & {
        assert(!has_value());
        return std::get<1>(m_v);
    }
    Error &&error() && {
        assert(!has_value());
        return std::get<1>(std::move(m_v));
    }

private:
    std::variant<T, Error> m_v;
};

template <> class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(const Error &error)
        : m_error(error)
        , m_ok(false) {}
    Result(Error &&error)
        : m_error(std::move(error))
        , m_ok(false) {}

    [[nodiscard]] bool has_value() const noexcept { return m_ok; }
    explicit operator bool() const noexcept { return m_ok; }
    const Error &error() const & {
        assert(!m_ok);
        return m_error;
    }
    Error &&error() && {
        assert(!m_ok);
        return std::move(m_error);
    }

private:
    Error m_error;
    bool m_ok = true;
};

} // namespace gq
