#pragma once
/// \file scheme.hpp
/// What a time-integration scheme is, before any vector exists: its kind, its stability limit,
/// whether it solves nonlinear steps with Newton, its options (parsed and validated from its own
/// case-file section `time.<name>:` by the scheme's file) and the factory of its integrator.
///
/// A scheme is one file, src/time/<name>.cpp (its header documents the recurrence), which
/// defines the Integrator and a `configure_<name>(const OptionMap&)` returning its Scheme, plus
/// one line in registry.cpp. The case-file parser, --check, the log, dt: auto, the choice of
/// solver and the manual's table (examples/guide/time_integration.md) all ask the Scheme; nothing
/// compares scheme names.

#include <any>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <typeinfo>

#include "inertia/core/error.hpp"
#include "inertia/core/options.hpp"
#include "inertia/core/registry.hpp"
#include "inertia/time/integrator.hpp"

namespace inertia {

enum class SchemeKind {
  explicit_scheme,  ///< never solves with the stiffness: M^{-1} only
  implicit_scheme,  ///< solves with m M + k K (+ b B) every step; Newton for nonlinear systems
  static_solve,     ///< load steps of f_int(u) = f_ext(t): no inertia, no damping
};

/// A configured scheme: a value (copyable); create() makes a fresh integrator with its options.
class Scheme {
 public:
  /// What the driver and the case-file checks need to know.
  struct Traits {
    SchemeKind kind = SchemeKind::implicit_scheme;
    /// Stability limit on omega h for an undamped oscillation: +infinity for unconditionally
    /// stable schemes, 0 for schemes that grow at any step (explicit Euler, RK2, Heun).
    double stability_limit = std::numeric_limits<double>::infinity();
    /// True if nonlinear systems are solved to convergence with Newton (SNES) every step.
    bool newton = false;
    /// Non-empty: Rayleigh damping has no meaning with these options, and this says why
    /// ("the static integrator").
    std::string refuses_damping;
  };
  using Factory = std::function<std::unique_ptr<Integrator>()>;

  Scheme() = default;
  /// `options_text`: the options for the log line ("beta 0.25, gamma 0.5"; may be empty).
  /// `params`: the scheme's typed options (read back with params<P>()).
  Scheme(std::string_view name, Traits traits, std::string options_text, std::any params,
         Factory factory)
      : name_(name),
        traits_(std::move(traits)),
        options_text_(std::move(options_text)),
        params_(std::move(params)),
        factory_(std::move(factory)) {}

  std::string_view name() const { return name_; }
  SchemeKind kind() const { return traits_.kind; }
  bool is_explicit() const { return traits_.kind == SchemeKind::explicit_scheme; }
  double stability_limit() const { return traits_.stability_limit; }
  /// Explicit, with a finite positive limit: dt must stay below limit / omega_max.
  bool conditionally_stable() const {
    return traits_.stability_limit > 0 &&
           traits_.stability_limit < std::numeric_limits<double>::infinity();
  }
  bool newton() const { return traits_.newton; }
  const std::string& refuses_damping() const { return traits_.refuses_damping; }
  const std::string& options_text() const { return options_text_; }

  /// A new integrator of this scheme and options.
  std::unique_ptr<Integrator> create() const {
    INERTIA_CHECK(factory_, InternalError, "Scheme::create on an unconfigured scheme");
    return factory_();
  }
  /// The scheme's typed options (NewmarkParams, ...). Throws InternalError for another type.
  template <typename P>
  const P& params() const {
    const P* p = std::any_cast<P>(&params_);
    INERTIA_CHECK(p, InternalError, "scheme ", name_, " has no options of type ", typeid(P).name());
    return *p;
  }

 private:
  std::string_view name_;
  Traits traits_;
  std::string options_text_;
  std::any params_;
  Factory factory_;
};

/// One registered scheme: its name is the time.integrator value and the name of its options
/// section; its example a `time:` block that uses it.
struct SchemeEntry : EntryInfo {
  Scheme (*configure)(const OptionMap& options);
};

/// Every registered scheme, in the order --help lists them.
Registry<SchemeEntry> schemes();
inline std::span<const SchemeEntry> scheme_entries() { return schemes().entries(); }
/// The registered scheme called `name`, or null.
inline const SchemeEntry* find_scheme(std::string_view name) { return schemes().find(name); }
/// Names of the registered schemes, in registration order.
inline std::vector<std::string_view> integrator_names() { return schemes().names(); }
/// The scheme `name` configured from `options` (an empty OptionList: its defaults). Throws
/// InputError for an unknown name or a bad option.
Scheme configure_scheme(std::string_view name, const OptionMap& options = OptionList{});

}  // namespace inertia
