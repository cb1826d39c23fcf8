my $t = <STDIN>;
for (1 .. $t) {
    my ($a, $b) = split ' ', <STDIN>;
    print $a + $b, "\n";
}
