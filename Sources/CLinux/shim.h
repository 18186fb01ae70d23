#ifndef PRESSDB_CLINUX_SHIM_H
#define PRESSDB_CLINUX_SHIM_H
// Linux calls that Swift's Glibc module leaves out, being GNU extensions (declared by <fcntl.h>
// only under _GNU_SOURCE, which that module is built without).
#include <stdint.h>

// sync_file_range(2): with SYNC_FILE_RANGE_WRITE, starts writing the file's dirty pages in the
// range to disk without waiting for them (nbytes 0: to the end of the file). A hint to the
// kernel, not a durability guarantee. glibc exports it since 2.6 with 64-bit offsets on 64-bit
// targets (off64_t).
int sync_file_range(int fd, int64_t offset, int64_t nbytes, unsigned int flags);

// <linux/fs.h>: start write-out of the range's dirty pages not already being written.
#define PRESSDB_SYNC_FILE_RANGE_WRITE 2

#endif
