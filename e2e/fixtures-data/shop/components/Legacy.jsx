import React from 'react';

export class LegacyFooter extends React.Component {
  render() {
    return <footer>© Shop</footer>;
  }
}
