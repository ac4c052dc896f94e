# Reference outputs of scmamp (Calvo & Santafé, R package, GitHub b0rxa/scmamp)
# for tests/stats/frequentist/test_aligned_quade_scmamp.py. scmamp is not on
# CRAN's Debian packages, so the tests read these stored numbers; run once:
#
#   Rscript tests/data/make_scmamp_reference.R <scmamp checkout> <its commit> \
#       > tests/data/scmamp_reference.json
#
# (stored: commit 3cf4d8b9759769cdf20771afa0efc33a5265c7f9, R 4.2.2)
#
# It sources R/tests.R, R/post_hoc.R and R/pvalue_corrections.R of the
# checkout (base R only). Tables: García & Herrera's (2008) 30 x 5
# accuracies (tests/data/garcia_herrera_2008.csv, scmamp's data.gh.2008) and
# a seeded 25 x 5 table of continuous scores (no ties in the aligned scores).
args <- commandArgs(trailingOnly = TRUE)
for (f in c("tests.R", "post_hoc.R", "pvalue_corrections.R")) {
  source(file.path(args[1], "R", f))
}
here <- dirname(sub("--file=", "", grep("--file=", commandArgs(), value = TRUE)))
gh <- read.csv(file.path(here, "garcia_herrera_2008.csv"), row.names = 1,
               check.names = FALSE)
set.seed(18)
cont <- as.data.frame(matrix(runif(25 * 5), ncol = 5) +
                      rep(c(0, 0.05, 0.1, 0.15, 0.3), each = 25))
colnames(cont) <- c("A", "B", "C", "D", "E")

num <- function(x) ifelse(is.na(x), "null", sprintf("%.17g", x))
vec <- function(x) paste0("[", paste(num(as.numeric(x)), collapse = ", "), "]")
mat <- function(m) paste0("[", paste(apply(m, 1, vec), collapse = ", "), "]")
block <- function(data) {
  al <- friedmanAlignedRanksTest(data)
  qpost <- quadePost(data, control = 2)
  paste0(
    "{\"aligned_T\": ", num(al$statistic), ", \"aligned_p\": ", num(al$p.value),
    ", \"aligned_post\": ", mat(friedmanAlignedRanksPost(data, control = NULL)),
    ", \"quade_post\": ", mat(quadePost(data, control = NULL)),
    ", \"friedman_post\": ", mat(friedmanPost(data, control = NULL)),
    ", \"quade_post_control_2\": ", vec(qpost),
    ", \"finner\": ", vec(suppressWarnings(adjustFinner(qpost))),
    ", \"li\": ", vec(suppressWarnings(adjustLi(qpost))),
    ", \"rom\": ", vec(suppressWarnings(adjustRom(qpost, alpha = 0.05))), "}")
}
cat("{\"source\": \"scmamp (github b0rxa/scmamp) commit ", args[2],
    ", made by make_scmamp_reference.R\",\n",
    "\"continuous\": {\"columns\": ", vec(seq_len(5)), ", \"values\": ", mat(as.matrix(cont)),
    ", \"results\": ", block(cont), "},\n",
    "\"garcia_herrera_2008\": ", block(gh), "}\n", sep = "")
