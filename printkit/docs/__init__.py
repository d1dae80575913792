"""Documents from the data: the rules text, booklets, the rules reference site, the balance report."""
