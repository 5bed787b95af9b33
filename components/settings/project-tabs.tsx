import Link from "next/link";
import { roleAtLeast, type ProjectRole } from "@/lib/auth/roles";
import styles from "./settings.module.css";

const TABS = [
  { path: "", label: "Project", minimum: "viewer" },
  { path: "/members", label: "Members", minimum: "viewer" },
  { path: "/classification", label: "Classification", minimum: "viewer" },
  { path: "/keys", label: "Keys", minimum: "admin" },
  { path: "/audit", label: "Audit log", minimum: "admin" },
] as const;

/** A project's settings pages; the ones the caller's role cannot use are left out. */
export function ProjectTabs({ project, role, current }: { project: string; role: ProjectRole; current: "" | "/members" | "/classification" | "/keys" | "/audit" }) {
  const base = `/settings/projects/${encodeURIComponent(project)}`;
  return (
    <nav aria-label="Project settings">
      <ul className={styles.tabs}>
        {TABS.filter((t) => roleAtLeast(role, t.minimum)).map((t) => (
          <li key={t.path}>
            <Link href={base + t.path} aria-current={t.path === current ? "page" : undefined}>
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
