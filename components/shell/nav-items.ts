/** The dashboard's sections, in nav order. Each page owns its own query string. */
export const NAV_ITEMS = [
  { href: "/", label: "Overview" },
  { href: "/issues", label: "Issues" },
  { href: "/tools", label: "Tools" },
  { href: "/codes", label: "Codes" },
  { href: "/runs", label: "Runs" },
  { href: "/drift", label: "Drift" },
  { href: "/releases", label: "Releases" },
  { href: "/conformance", label: "Conformance" },
  { href: "/experiments", label: "Experiments" },
  { href: "/slos", label: "SLOs" },
  { href: "/alerts", label: "Alerts" },
  { href: "/settings", label: "Settings" },
] as const;

