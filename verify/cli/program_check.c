/* The ELF reading of program_check.h: the section headers (for nvcc's
 * .nv_fatbin section, the device code) and the dynamic section (its
 * DT_NEEDED libraries and DT_RPATH). */
#include "verify/cli/program_check.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads n bytes at off; 0, or -1 when the file ends before. */
static int read_at(FILE *f, long off, void *buf, size_t n)
{
    return fseek(f, off, SEEK_SET) == 0 && fread(buf, 1, n, f) == n ? 0 : -1;
}

int program_check(const char *path, program_info *info, char *why, size_t whylen)
{
    memset(info, 0, sizeof *info);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, whylen, "%s", strerror(errno));
        return -1;
    }
    Elf64_Ehdr eh;
    if (read_at(f, 0, &eh, sizeof eh) != 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64) {
        info->link = PROGRAM_NOT_ELF;
        fclose(f);
        return 0;
    }
    int rc = -1;
    Elf64_Shdr *sh = NULL;
    char *shstr = NULL, *dynstr = NULL;
    Elf64_Dyn *dyn = NULL;
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shnum > 65280 ||
        eh.e_shstrndx >= eh.e_shnum) {
        snprintf(why, whylen, "its ELF section headers are not readable");
        goto out;
    }
    sh = calloc(eh.e_shnum, sizeof *sh);
    if (!sh || read_at(f, (long)eh.e_shoff, sh, eh.e_shnum * sizeof *sh) != 0) {
        snprintf(why, whylen, "its ELF section headers are truncated");
        goto out;
    }
    const Elf64_Shdr *ss = &sh[eh.e_shstrndx];
    if (ss->sh_size > (1u << 24) || !(shstr = calloc(ss->sh_size + 1, 1)) ||
        read_at(f, (long)ss->sh_offset, shstr, ss->sh_size) != 0) {
        snprintf(why, whylen, "its ELF section names are not readable");
        goto out;
    }
    bool device_code = false, needs_cudart = false;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_name < ss->sh_size && strcmp(shstr + sh[i].sh_name, ".nv_fatbin") == 0)
            device_code = true;
        if (sh[i].sh_type != SHT_DYNAMIC || sh[i].sh_link >= eh.e_shnum)
            continue;
        const Elf64_Shdr *ds = &sh[sh[i].sh_link];
        if (sh[i].sh_size > (1u << 24) || ds->sh_size > (1u << 24))
            continue;
        free(dyn);
        free(dynstr);
        dyn = malloc(sh[i].sh_size + 1);
        dynstr = calloc(ds->sh_size + 1, 1);
        if (!dyn || !dynstr || read_at(f, (long)sh[i].sh_offset, dyn, sh[i].sh_size) != 0 ||
            read_at(f, (long)ds->sh_offset, dynstr, ds->sh_size) != 0) {
            snprintf(why, whylen, "its dynamic section is truncated");
            goto out;
        }
        for (size_t k = 0; k < sh[i].sh_size / sizeof *dyn && dyn[k].d_tag != DT_NULL; k++) {
            if (dyn[k].d_un.d_val >= ds->sh_size)
                continue;
            const char *name = dynstr + dyn[k].d_un.d_val;
            unsigned major = 0;
            if (dyn[k].d_tag == DT_NEEDED && sscanf(name, "libcudart.so.%u", &major) == 1) {
                needs_cudart = true;
                info->cudart_major = major;
            }
            if (dyn[k].d_tag == DT_RPATH)
                info->has_rpath = 1;
        }
    }
    info->link = needs_cudart ? PROGRAM_CUDART_SHARED : device_code ? PROGRAM_CUDART_STATIC : PROGRAM_NO_CUDA;
    rc = 0;
out:
    free(sh);
    free(shstr);
    free(dyn);
    free(dynstr);
    fclose(f);
    return rc;
}
