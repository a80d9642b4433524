# Sourced by the GPU scripts that run the catalogue under Nsight Compute
# (tools/fidelity.sh, tools/issue-profile.sh), so that both run the same
# kernels with the same parameters.
#
#   catalogue_kernels ROOT BUILD
#
# prints one line per kernel of cuda/kernels.def: KIND ALGO PARAM BOTH, KIND
# SCAN or REDUCE, PARAM the algorithm's parameter (0 but where
# FIDELITY_PARAMS, words algo=param, names one: two-level's default differs
# between the backends, ranges to fill the GPU against 8 in the simulator,
# so both get 132), BOTH yes when BUILD runs it on the simulator and on CUDA.
catalogue_kernels() {
    local root=$1 build=$2 listed kind algo p w both
    listed=$("$build/scanlab" list) || return 1
    sed -n 's/^SL_KERNEL([a-z_0-9]*, *\(block\|device\|reduce\), *\(SCAN\|REDUCE\), *"\([^"]*\)".*/\2 \3/p' \
        "$root/cuda/kernels.def" |
        while read -r kind algo; do
            p=0
            for w in ${FIDELITY_PARAMS:-two-level=132}; do [ "${w%%=*}" = "$algo" ] && p=${w#*=}; done
            both=no
            echo "$listed" | grep -qE "^$algo +[a-z]+ +sim,cuda" && both=yes
            echo "$kind $algo $p $both"
        done
}
