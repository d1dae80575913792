"""One design drawn: layouts, the fields a card shows, the painter, text fitting, fonts, icons, boards, pictures."""
