<?php
$t = (int) fgets(STDIN);
for ($i = 0; $i < $t; $i++) {
    [$a, $b] = array_map('intval', preg_split('/\s+/', trim(fgets(STDIN))));
    echo $a + $b, "\n";
}
