/* The process_* metrics of Prometheus' client libraries (client_golang's
 * process collector: CPU, memory, file descriptors, start time, read from
 * /proc/self) and catalyzer_build_info{version,revision,compiler,buildtype} 1.
 * They describe catalyzerd's own process: analysis worker processes
 * (--worker-isolation process) are separate processes with their own figures. */
#ifndef CZ_METRICS_PROCESS_H
#define CZ_METRICS_PROCESS_H

#include "core/strbuf.h"

/* Figures that cannot be read (no /proc) are left out, not made up. */
void process_metrics_render(StrBuf *sb);
void build_info_render(StrBuf *sb);

#endif
