import styles from "../runs.module.css";

/** Zoom buttons and the keyboard and pointer shortcuts, said once above the lanes. */
export function TimelineToolbar({ onZoomIn, onZoomOut, onFit }: { onZoomIn: () => void; onZoomOut: () => void; onFit: () => void }) {
  return (
    <div className={styles.toolbar}>
      <button type="button" className={styles.btn} onClick={onZoomIn} aria-label="Zoom in">
        + zoom in
      </button>
      <button type="button" className={styles.btn} onClick={onZoomOut} aria-label="Zoom out">
        − zoom out
      </button>
      <button type="button" className={styles.btn} onClick={onFit}>
        fit
      </button>
      <span className={styles.keys}>
        <kbd>j</kbd>/<kbd>→</kbd> next failing attempt · <kbd>k</kbd>/<kbd>←</kbd> previous · <kbd>+</kbd>/<kbd>−</kbd> zoom ·{" "}
        <kbd>0</kbd> fit · drag or <kbd>shift</kbd>+wheel to pan · <kbd>ctrl</kbd>+wheel to zoom · <kbd>Tab</kbd> moves through attempts
      </span>
    </div>
  );
}
