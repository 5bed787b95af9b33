// Daily partitions of the raw tables on PostgreSQL: created ahead, packed once closed, dropped when expired.
export { ensurePartitions } from "./ensure-partitions";
export { dropExpiredPartitions, type DropResult } from "./drop-expired-partitions";
export { packClosedPartitions, PACK_AFTER_MS, type PackResult, type PackOptions } from "./pack-closed-partitions";
export { listPartitions, type PartitionInfo } from "./list-partitions";
export { PARTITIONED_TABLES, DAY_MS, partitionName, defaultPartitionName, utcDayStart, type PartitionedTable } from "./partitioned-tables";
